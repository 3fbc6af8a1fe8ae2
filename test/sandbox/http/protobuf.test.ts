/**
 * The protobuf request-body decoder against real kubectl v1.32.4 bodies:
 * each fixture is the exact body kubectl sent (captured once from a sandbox),
 * and must decode to the JSON form of the same object — taken from kubectl's
 * own `--dry-run=client -o json` for the same command, with its `null`s
 * dropped as the HTTP layer drops them from JSON bodies. Then hostile and
 * unsupported inputs: 400 for malformed bytes, 415 naming what is unknown.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ApiError } from '../../../sandbox/api/errors';
import { decodeProtobufBody, PROTOBUF_KINDS, protobufRegistry } from '../../../sandbox/http/protobuf/index';
import { MAX_DEPTH, MAX_VALUES } from '../../../sandbox/http/protobuf/decode';
import { isScalar } from '../../../sandbox/http/protobuf/schema';

interface Fixture {
  command: string;
  body: string;
  json: unknown;
}

const FIXTURES: readonly Fixture[] = [
  {
    command: 'kubectl create configmap cm1 --from-literal=a=b --from-literal=empty=',
    body: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEigKEwoDY20xEgAaACIAKgAyADgAQgASBgoBYRIBYhIJCgVlbXB0eRIAGgAiAA==',
    json: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm1' }, data: { a: 'b', empty: '' } },
  },
  {
    command: 'kubectl create configmap cm2 --from-file=bin=bin.dat',
    body: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEiQKEwoDY20yEgAaACIAKgAyADgAQgAaDQoDYmluEgYAAQL+/4AaACIA',
    json: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm2' }, binaryData: { bin: 'AAEC/v+A' } },
  },
  {
    command: 'kubectl create secret generic s1 --from-literal=user=admin --from-literal=pw=s3cr3t',
    body: 'azhzAAoMCgJ2MRIGU2VjcmV0EjMKEgoCczESABoAIgAqADIAOABCABIMCgJwdxIGczNjcjN0Eg0KBHVzZXISBWFkbWluGgAaACIA',
    json: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's1' }, data: { pw: 'czNjcjN0', user: 'YWRtaW4=' } },
  },
  {
    command:
      'kubectl create secret docker-registry d1 --docker-server=r.example --docker-username=u --docker-password=p --docker-email=e@x.y',
    body: 'azhzAAoMCgJ2MRIGU2VjcmV0EqABChIKAmQxEgAaACIAKgAyADgAQgASagoRLmRvY2tlcmNvbmZpZ2pzb24SVXsiYXV0aHMiOnsici5leGFtcGxlIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicCIsImVtYWlsIjoiZUB4LnkiLCJhdXRoIjoiZFRwdyJ9fX0aHmt1YmVybmV0ZXMuaW8vZG9ja2VyY29uZmlnanNvbhoAIgA=',
    json: {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'd1' },
      data: {
        '.dockerconfigjson':
          'eyJhdXRocyI6eyJyLmV4YW1wbGUiOnsidXNlcm5hbWUiOiJ1IiwicGFzc3dvcmQiOiJwIiwiZW1haWwiOiJlQHgueSIsImF1dGgiOiJkVHB3In19fQ==',
      },
      type: 'kubernetes.io/dockerconfigjson',
    },
  },
  {
    command: 'kubectl create namespace ns1',
    body: 'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEhsKEwoDbnMxEgAaACIAKgAyADgAQgASABoCCgAaACIA',
    json: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'ns1' }, spec: {}, status: {} },
  },
  {
    command: 'kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80',
    body: 'azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50Er0BCh8KA3dlYhIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViEosBCAMSDAoKCgNhcHASA3dlYhpxChwKABIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViElESMwoFbmdpbngSCm5naW54OjEuMjcqADIKCgAQABhQIgAqAEIAagByAIABAIgBAJABAKIBABoAMgBCAEoAUgBYAGAAaACCAQCKAQCaAQDCAQAiAgoAKAA4ABoMCAAQABgAIAAoADgAGgAiAA==',
    json: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    },
  },
  {
    command: 'kubectl create deployment multi --image=nginx --image=busybox',
    body: 'azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50Et0BCiMKBW11bHRpEgAaACIAKgAyADgAQgBaDAoDYXBwEgVtdWx0aRKnAQgBEg4KDAoDYXBwEgVtdWx0aRqKAQoeCgASABoAIgAqADIAOABCAFoMCgNhcHASBW11bHRpEmgSIgoFbmdpbngSBW5naW54KgBCAGoAcgCAAQCIAQCQAQCiAQASJgoHYnVzeWJveBIHYnVzeWJveCoAQgBqAHIAgAEAiAEAkAEAogEAGgAyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBACICCgAoADgAGgwIABAAGAAgACgAOAAaACIA',
    json: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'multi', labels: { app: 'multi' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'multi' } },
        template: {
          metadata: { labels: { app: 'multi' } },
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx', resources: {} },
              { name: 'busybox', image: 'busybox', resources: {} },
            ],
          },
        },
        strategy: {},
      },
      status: {},
    },
  },
  {
    command: 'kubectl create job j1 --image=busybox -- echo hi',
    body: 'azhzAAoPCghiYXRjaC92MRIDSm9iEoQBChIKAmoxEgAaACIAKgAyADgAQgASZDJiChAKABIAGgAiACoAMgA4AEIAEk4SKwoCajESB2J1c3lib3gaBGVjaG8aAmhpKgBCAGoAcgCAAQCIAQCQAQCiAQAaBU5ldmVyMgBCAEoAUgBYAGAAaACCAQCKAQCaAQDCAQAaCCAAKAAwADoAGgAiAA==',
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: { name: 'j1' },
      spec: {
        template: {
          metadata: {},
          spec: {
            containers: [{ name: 'j1', image: 'busybox', command: ['echo', 'hi'], resources: {} }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {},
    },
  },
  {
    command: 'kubectl create job j2 --from=cronjob/nightly',
    body: 'azhzAAoPCghiYXRjaC92MRIDSm9iEsQCCoUBCgJqMhIAGgAiACoAMgA4AEIAYisKIWNyb25qb2Iua3ViZXJuZXRlcy5pby9pbnN0YW50aWF0ZRIGbWFudWFsakQKB0Nyb25Kb2IaB25pZ2h0bHkiJGNlZDI3NDRlLTc3NTctNDRlMS1hNjA1LWRhOGUzNzFjNmY3MioIYmF0Y2gvdjEwARKvATKsAQoQCgASABoAIgAqADIAOABCABKXARJPCgFjEgdidXN5Ym94GgJzaBoCLWMaB2VjaG8gaGkqAEIAahQvZGV2L3Rlcm1pbmF0aW9uLWxvZ3IGQWx3YXlzgAEAiAEAkAEAogEERmlsZRoJT25GYWlsdXJlIB4yDENsdXN0ZXJGaXJzdEIASgBSAFgAYABoAHIAggEAigEAmgERZGVmYXVsdC1zY2hlZHVsZXLCAQAaCCAAKAAwADoAGgAiAA==',
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: {
        name: 'j2',
        annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
        ownerReferences: [
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            name: 'nightly',
            uid: 'ced2744e-7757-44e1-a605-da8e371c6f72',
            controller: true,
          },
        ],
      },
      spec: {
        template: {
          metadata: {},
          spec: {
            containers: [
              {
                name: 'c',
                image: 'busybox',
                command: ['sh', '-c', 'echo hi'],
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'Always',
              },
            ],
            restartPolicy: 'OnFailure',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
      },
      status: {},
    },
  },
  {
    command: 'kubectl create cronjob cj1 --image=busybox --schedule=*/1 * * * * --restart=OnFailure -- date',
    body: 'azhzAAoTCghiYXRjaC92MRIHQ3JvbkpvYhKnAQoTCgNjajESABoAIgAqADIAOABCABKNAQoLKi8xICogKiAqICoaACp8ChMKA2NqMRIAGgAiACoAMgA4AEIAEmUyYwoQCgASABoAIgAqADIAOABCABJPEigKA2NqMRIHYnVzeWJveBoEZGF0ZSoAQgBqAHIAgAEAiAEAkAEAogEAGglPbkZhaWx1cmUyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBABoAGgAiAA==',
    json: {
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: { name: 'cj1' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          metadata: { name: 'cj1' },
          spec: {
            template: {
              metadata: {},
              spec: {
                containers: [{ name: 'cj1', image: 'busybox', command: ['date'], resources: {} }],
                restartPolicy: 'OnFailure',
              },
            },
          },
        },
      },
      status: {},
    },
  },
  {
    command: 'kubectl create service clusterip svc1 --tcp=80:8080',
    body: 'azhzAAoNCgJ2MRIHU2VydmljZRJsCiEKBHN2YzESABoAIgAqADIAOABCAFoLCgNhcHASBHN2YzESQwobCgc4MC04MDgwEgNUQ1AYUCIHCAAQkD8aACgAEgsKA2FwcBIEc3ZjMRoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoAGgAiAA==',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc1', labels: { app: 'svc1' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
        selector: { app: 'svc1' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create service clusterip svc-headless --clusterip=None',
    body: 'azhzAAoNCgJ2MRIHU2VydmljZRJrCjEKDHN2Yy1oZWFkbGVzcxIAGgAiACoAMgA4AEIAWhMKA2FwcBIMc3ZjLWhlYWRsZXNzEjISEwoDYXBwEgxzdmMtaGVhZGxlc3MaBE5vbmUiCUNsdXN0ZXJJUDoAQgBSAFoAYABoABoCCgAaACIA',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc-headless', labels: { app: 'svc-headless' } },
      spec: { selector: { app: 'svc-headless' }, clusterIP: 'None', type: 'ClusterIP' },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create service nodeport svc2 --tcp=80:8080 --node-port=30080',
    body: 'azhzAAoNCgJ2MRIHU2VydmljZRJtCiEKBHN2YzISABoAIgAqADIAOABCAFoLCgNhcHASBHN2YzISRAodCgc4MC04MDgwEgNUQ1AYUCIHCAAQkD8aACiA6wESCwoDYXBwEgRzdmMyGgAiCE5vZGVQb3J0OgBCAFIAWgBgAGgAGgIKABoAIgA=',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc2', labels: { app: 'svc2' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 }],
        selector: { app: 'svc2' },
        type: 'NodePort',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create service loadbalancer svc3 --tcp=443:8443',
    body: 'azhzAAoNCgJ2MRIHU2VydmljZRJxCiEKBHN2YzMSABoAIgAqADIAOABCAFoLCgNhcHASBHN2YzMSSAodCgg0NDMtODQ0MxIDVENQGLsDIgcIABD7QRoAKAASCwoDYXBwEgRzdmMzGgAiDExvYWRCYWxhbmNlcjoAQgBSAFoAYABoABoCCgAaACIA',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc3', labels: { app: 'svc3' } },
      spec: {
        ports: [{ name: '443-8443', protocol: 'TCP', port: 443, targetPort: 8443 }],
        selector: { app: 'svc3' },
        type: 'LoadBalancer',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create service externalname svc4 --external-name=example.com',
    body: 'azhzAAoNCgJ2MRIHU2VydmljZRJdCiEKBHN2YzQSABoAIgAqADIAOABCAFoLCgNhcHASBHN2YzQSNBILCgNhcHASBHN2YzQaACIMRXh0ZXJuYWxOYW1lOgBCAFILZXhhbXBsZS5jb21aAGAAaAAaAgoAGgAiAA==',
    json: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc4', labels: { app: 'svc4' } },
      spec: { selector: { app: 'svc4' }, type: 'ExternalName', externalName: 'example.com' },
      status: { loadBalancer: {} },
    },
  },
  {
    command: 'kubectl create serviceaccount sa1',
    body: 'azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSFQoTCgNzYTESABoAIgAqADIAOABCABoAIgA=',
    json: { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'sa1' } },
  },
  {
    command: 'kubectl create quota q1 --hard=cpu=1,memory=1G,pods=2 --scopes=BestEffort',
    body: 'azhzAAoTCgJ2MRINUmVzb3VyY2VRdW90YRJNChIKAnExEgAaACIAKgAyADgAQgASNQoKCgNjcHUSAwoBMQoOCgZtZW1vcnkSBAoCMUcKCwoEcG9kcxIDCgEyEgpCZXN0RWZmb3J0GgAaACIA',
    json: {
      kind: 'ResourceQuota',
      apiVersion: 'v1',
      metadata: { name: 'q1' },
      spec: { hard: { cpu: '1', memory: '1G', pods: '2' }, scopes: ['BestEffort'] },
      status: {},
    },
  },
  {
    command: 'kubectl create role r1 --verb=get,list --resource=pods,deployments.apps --resource-name=a',
    body: 'azhzAAokChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgRSb2xlEk8KEgoCcjESABoAIgAqADIAOABCABIWCgNnZXQKBGxpc3QSABoEcG9kcyIBYRIhCgNnZXQKBGxpc3QSBGFwcHMaC2RlcGxveW1lbnRzIgFhGgAiAA==',
    json: {
      kind: 'Role',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'r1' },
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
        { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'] },
      ],
    },
  },
  {
    command: 'kubectl create rolebinding rb1 --role=r1 --user=alice --serviceaccount=default:sa1 --group=devs',
    body: 'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtSb2xlQmluZGluZxK2AQoTCgNyYjESABoAIgAqADIAOABCABIqCgRVc2VyEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgVhbGljZSIAEioKBUdyb3VwEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgRkZXZzIgASIAoOU2VydmljZUFjY291bnQSABoDc2ExIgdkZWZhdWx0GiUKGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8SBFJvbGUaAnIxGgAiAA==',
    json: {
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'rb1' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
        { kind: 'ServiceAccount', name: 'sa1', namespace: 'default' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r1' },
    },
  },
  {
    command: 'kubectl create clusterrole cr1 --verb=get --non-resource-url=/healthz',
    body: 'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRImChMKA2NyMRIAGgAiACoAMgA4AEIAEg8KA2dldCoIL2hlYWx0aHoaACIA',
    json: {
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'cr1' },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    },
  },
  {
    command: 'kubectl create clusterrole cr2 --aggregation-rule=foo=bar',
    body: 'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRIlChMKA2NyMhIAGgAiACoAMgA4AEIAGg4KDAoKCgNmb28SA2JhchoAIgA=',
    json: {
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'cr2' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { foo: 'bar' } }] },
    },
  },
  {
    command: 'kubectl create clusterrolebinding crb1 --clusterrole=cr1 --user=bob',
    body: 'azhzAAoyChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEhJDbHVzdGVyUm9sZUJpbmRpbmcSbwoUCgRjcmIxEgAaACIAKgAyADgAQgASKAoEVXNlchIZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxoDYm9iIgAaLQoZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxILQ2x1c3RlclJvbGUaA2NyMRoAIgA=',
    json: {
      kind: 'ClusterRoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'crb1' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr1' },
    },
  },
  {
    command: 'kubectl create priorityclass high --value=1000000 --description="high pods" --preemption-policy=Never',
    body: 'azhzAAolChRzY2hlZHVsaW5nLms4cy5pby92MRINUHJpb3JpdHlDbGFzcxIuChQKBGhpZ2gSABoAIgAqADIAOABCABDAhD0YACIJaGlnaCBwb2RzKgVOZXZlchoAIgA=',
    json: {
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'high' },
      value: 1000000,
      description: 'high pods',
      preemptionPolicy: 'Never',
    },
  },
  {
    command: 'kubectl create priorityclass low --value=-5 --global-default=true',
    body: 'azhzAAolChRzY2hlZHVsaW5nLms4cy5pby92MRINUHJpb3JpdHlDbGFzcxI6ChMKA2xvdxIAGgAiACoAMgA4AEIAEPv//////////wEYASIAKhRQcmVlbXB0TG93ZXJQcmlvcml0eRoAIgA=',
    json: {
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'low' },
      value: -5,
      globalDefault: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
  },
  {
    command: 'kubectl create poddisruptionbudget pdb1 --selector=app=web --min-available=1',
    body: 'azhzAAogCglwb2xpY3kvdjESE1BvZERpc3J1cHRpb25CdWRnZXQSOgoUCgRwZGIxEgAaACIAKgAyADgAQgASFgoGCAAQARoAEgwKCgoDYXBwEgN3ZWIaCggAGAAgACgAMAAaACIA',
    json: {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb1' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  {
    command: 'kubectl create poddisruptionbudget pdb2 --selector=app=x --max-unavailable=50%',
    body: 'azhzAAogCglwb2xpY3kvdjESE1BvZERpc3J1cHRpb25CdWRnZXQSOwoUCgRwZGIyEgAaACIAKgAyADgAQgASFxIKCggKA2FwcBIBeBoJCAEQABoDNTAlGgoIABgAIAAoADAAGgAiAA==',
    json: {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb2' },
      spec: { selector: { matchLabels: { app: 'x' } }, maxUnavailable: '50%' },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    },
  },
  {
    command:
      'kubectl create ingress ing1 --class=nginx --rule=foo.com/bar*=svc1:80,tls=my-cert --default-backend=svc2:http --annotation=a=b',
    body: 'azhzAAofChRuZXR3b3JraW5nLms4cy5pby92MRIHSW5ncmVzcxKCAQocCgRpbmcxEgAaACIAKgAyADgAQgBiBgoBYRIBYhJeChIiEAoEc3ZjMhIICgRodHRwEAASEgoHZm9vLmNvbRIHbXktY2VydBotCgdmb28uY29tEiIKIAoeCgQvYmFyEg4iDAoEc3ZjMRIECgAQUBoGUHJlZml4IgVuZ2lueBoCCgAaACIA',
    json: {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'ing1', annotations: { a: 'b' } },
      spec: {
        ingressClassName: 'nginx',
        defaultBackend: { service: { name: 'svc2', port: { name: 'http' } } },
        tls: [{ hosts: ['foo.com'], secretName: 'my-cert' }],
        rules: [
          {
            host: 'foo.com',
            http: {
              paths: [
                { path: '/bar', pathType: 'Prefix', backend: { service: { name: 'svc1', port: { number: 80 } } } },
              ],
            },
          },
        ],
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command:
      'kubectl create job rich-now --from=cronjob/rich (a CronJob with most pod template fields, stored with server defaults)',
    body: 'azhzAAoPCghiYXRjaC92MRIDSm9iEr0NCpYBCghyaWNoLW5vdxIAGgAiACoAMgA4AEIAWgwKBGtpbmQSBHJpY2hiKwohY3JvbmpvYi5rdWJlcm5ldGVzLmlvL2luc3RhbnRpYXRlEgZtYW51YWxqQQoHQ3JvbkpvYhoEcmljaCIkY2VkMjc0NGUtNzc1Ny00NGUxLWE2MDUtZGE4ZTM3MWM2ZjcyKghiYXRjaC92MTABEpcMCAIQBBjYBDK/CwolCgASABoAIgAqADIAOABCAFoLCgNhcHASBHJpY2hiBgoBYRIBYhKVCwolCgNjZmcSHpoBGwoFCgNjbTESDQoBYRIFYS50eHQYgAIYpAMgAQoQCgNzZWMSCTIHCgJzMRikAwodCgdzY3JhdGNoEhISEAoGTWVtb3J5EgYKBDY0TWkKGwoEaG9zdBITChEKBC90bXASCURpcmVjdG9yeQpECgRwcm9qEjzSATkKESIPCgNhcGkQkBwaBXRva2VuCiESHwodCgZsYWJlbHMSEwoAEg9tZXRhZGF0YS5sYWJlbHMQpAMKEQoDcHZjEgpSCAoEZGF0YRABEuoECgRtYWluEgxidXN5Ym94OjEuMzYaAnNoIgItYyIJZWNobyAkKEEpKgUvd29yazISCgRodHRwEAAYkD8iA1RDUCoAMg8KABCDRxiCRyIDVURQKgA6BgoBQRIBMToJCgVFTVBUWRIAOh4KA1BPRBIAGhUKEwoCdjESDW1ldGFkYXRhLm5hbWU6HwoDQ1BVEgAaFhIUCgASCmxpbWl0cy5jcHUaBAoCMW06FgoCQ00SABoOGgwKBQoDY20xEgFhGAA6FQoBUxIAGg4iDAoECgJzMRIEdXNlckJcCgoKA2NwdRIDCgExChoKEWVwaGVtZXJhbC1zdG9yYWdlEgUKAzFHaQoRCgZtZW1vcnkSBwoFMTI4TWkSDQoDY3B1EgYKBDEwMG0SEAoGbWVtb3J5EgYKBDY0TWlKEQoDY2ZnEAEaBC9jZmciADIAShoKB3NjcmF0Y2gQABoIL3NjcmF0Y2giAXgyAFI2CioSKAoIL2hlYWx0aHoSCggBEAAaBGh0dHAaACIESFRUUCoICgFYEgN5ZXMQAxgBIAUoATADWhkKDRoLCgcIABCQPxoAEgAQABgBIAooATABYhAKCAoGCgR0cnVlEgQiAggFahQvZGV2L3Rlcm1pbmF0aW9uLWxvZ3IMSWZOb3RQcmVzZW50ehsKEAoJTkVUX0FETUlOEgNBTEwQADABOABAuBeAAQGIAQCQAQGaAQ0KAlBfEgcKBQoDY20xmgEMCgAaCAoECgJzMRABogEVRmFsbGJhY2tUb0xvZ3NPbkVycm9ysgEeChAKDgoDY2F0CgcvdG1wL29rEAAYASAKKAEwAzgKElIKBGdycGMSBW5naW54KgBCAFIRCgUiAwioRhAAGAEgCigBMANqFC9kZXYvdGVybWluYXRpb24tbG9ncgZBbHdheXOAAQCIAQCQAQCiAQRGaWxlGgVOZXZlciAAMgxDbHVzdGVyRmlyc3Q6CwoEZGlzaxIDc3NkQgdkZWZhdWx0SgBSAFgAYABoAHI7EOgHGAEgASACIAMoADoaChJuZXQuY29yZS5zb21heGNvbm4SBDEwMjRSEAoOUnVudGltZURlZmF1bHSCAQFoigEBc5IBdAo4ChQKEgoQCgR6b25lEgJJbhoBYRoBYhIgCAUSHBIaCg1tZXRhZGF0YS5uYW1lEgVOb3RJbhoCbjEaOBI2CGQSMgoPEg0KA2FwcBIGRXhpc3RzEgdkZWZhdWx0GhZrdWJlcm5ldGVzLmlvL2hvc3RuYW1lmgERZGVmYXVsdC1zY2hlZHVsZXKiAWMKBGluaXQSDGJ1c3lib3g6MS4zNhoCc2gaAi1jGgR0cnVlKgBCAGoUL2Rldi90ZXJtaW5hdGlvbi1sb2dyDElmTm90UHJlc2VudIABAIgBAJABAKIBBEZpbGXCAQZBbHdheXOoAQCyARoKAWsSBUVxdWFsGgF2IglOb0V4ZWN1dGUoHrIBDgoAEgZFeGlzdHMaACIAugEUCggxMC4wLjAuMRIDZm9vEgNiYXLCAQDSAR4KBzEuMS4xLjEaCgoFbmRvdHMSATIaBwoFZWRuczDwAQCKAicIARIEem9uZRoOU2NoZWR1bGVBbnl3YXkiDQoLCgNhcHASBHJpY2g4AEAASgdJbmRleGVkWj8KGQoHRmFpbEpvYhIOCgRtYWluEgJJbhgBGCoKIgoGSWdub3JlGhgKEERpc3J1cHRpb25UYXJnZXQSBFRydWUaCCAAKAAwADoAGgAiAA==',
    json: {
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: {
        name: 'rich-now',
        labels: { kind: 'rich' },
        annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
        ownerReferences: [
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            name: 'rich',
            uid: 'ced2744e-7757-44e1-a605-da8e371c6f72',
            controller: true,
          },
        ],
      },
      spec: {
        parallelism: 2,
        completions: 4,
        activeDeadlineSeconds: 600,
        podFailurePolicy: {
          rules: [
            { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [1, 42] } },
            { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          ],
        },
        backoffLimit: 0,
        template: {
          metadata: { labels: { app: 'rich' }, annotations: { a: 'b' } },
          spec: {
            volumes: [
              {
                name: 'cfg',
                configMap: {
                  name: 'cm1',
                  items: [{ key: 'a', path: 'a.txt', mode: 256 }],
                  defaultMode: 420,
                  optional: true,
                },
              },
              { name: 'sec', secret: { secretName: 's1', defaultMode: 420 } },
              { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
              { name: 'host', hostPath: { path: '/tmp', type: 'Directory' } },
              {
                name: 'proj',
                projected: {
                  sources: [
                    { serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } },
                    { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
                  ],
                  defaultMode: 420,
                },
              },
              { name: 'pvc', persistentVolumeClaim: { claimName: 'data', readOnly: true } },
            ],
            initContainers: [
              {
                name: 'init',
                image: 'busybox:1.36',
                command: ['sh', '-c', 'true'],
                resources: {},
                restartPolicy: 'Always',
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
              },
            ],
            containers: [
              {
                name: 'main',
                image: 'busybox:1.36',
                command: ['sh'],
                args: ['-c', 'echo $(A)'],
                workingDir: '/work',
                ports: [
                  { name: 'http', containerPort: 8080, protocol: 'TCP' },
                  { hostPort: 9091, containerPort: 9090, protocol: 'UDP' },
                ],
                envFrom: [
                  { prefix: 'P_', configMapRef: { name: 'cm1' } },
                  { secretRef: { name: 's1', optional: true } },
                ],
                env: [
                  { name: 'A', value: '1' },
                  { name: 'EMPTY' },
                  { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
                  { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
                  { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm1', key: 'a', optional: false } } },
                  { name: 'S', valueFrom: { secretKeyRef: { name: 's1', key: 'user' } } },
                ],
                resources: {
                  limits: { cpu: '1', 'ephemeral-storage': '1Gi', memory: '128Mi' },
                  requests: { cpu: '100m', memory: '64Mi' },
                },
                volumeMounts: [
                  { name: 'cfg', readOnly: true, mountPath: '/cfg' },
                  { name: 'scratch', mountPath: '/scratch', subPath: 'x' },
                ],
                livenessProbe: {
                  httpGet: {
                    path: '/healthz',
                    port: 'http',
                    scheme: 'HTTP',
                    httpHeaders: [{ name: 'X', value: 'yes' }],
                  },
                  initialDelaySeconds: 3,
                  timeoutSeconds: 1,
                  periodSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 3,
                },
                readinessProbe: {
                  tcpSocket: { port: 8080 },
                  timeoutSeconds: 1,
                  periodSeconds: 10,
                  successThreshold: 1,
                  failureThreshold: 1,
                },
                startupProbe: {
                  exec: { command: ['cat', '/tmp/ok'] },
                  timeoutSeconds: 1,
                  periodSeconds: 10,
                  successThreshold: 1,
                  failureThreshold: 3,
                  terminationGracePeriodSeconds: 10,
                },
                lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { sleep: { seconds: 5 } } },
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'FallbackToLogsOnError',
                imagePullPolicy: 'IfNotPresent',
                securityContext: {
                  capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
                  privileged: false,
                  runAsGroup: 3000,
                  readOnlyRootFilesystem: true,
                  allowPrivilegeEscalation: false,
                },
                stdin: true,
                tty: true,
              },
              {
                name: 'grpc',
                image: 'nginx',
                resources: {},
                livenessProbe: {
                  grpc: { port: 9000 },
                  timeoutSeconds: 1,
                  periodSeconds: 10,
                  successThreshold: 1,
                  failureThreshold: 3,
                },
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'Always',
              },
            ],
            restartPolicy: 'Never',
            terminationGracePeriodSeconds: 0,
            dnsPolicy: 'ClusterFirst',
            nodeSelector: { disk: 'ssd' },
            serviceAccountName: 'default',
            automountServiceAccountToken: false,
            securityContext: {
              runAsUser: 1000,
              runAsNonRoot: true,
              supplementalGroups: [1, 2, 3],
              fsGroup: 0,
              sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
              seccompProfile: { type: 'RuntimeDefault' },
            },
            hostname: 'h',
            subdomain: 's',
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
                },
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 5,
                    preference: { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] },
                  },
                ],
              },
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
                      namespaces: ['default'],
                      topologyKey: 'kubernetes.io/hostname',
                    },
                  },
                ],
              },
            },
            schedulerName: 'default-scheduler',
            tolerations: [
              { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 30 },
              { operator: 'Exists' },
            ],
            hostAliases: [{ ip: '10.0.0.1', hostnames: ['foo', 'bar'] }],
            dnsConfig: { nameservers: ['1.1.1.1'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] },
            enableServiceLinks: false,
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'zone',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: { app: 'rich' } },
              },
            ],
          },
        },
        ttlSecondsAfterFinished: 0,
        completionMode: 'Indexed',
      },
      status: {},
    },
  },
  {
    command: 'kubectl autoscale deployment php-apache --cpu-percent=50 --min=1 --max=10',
    body: 'azhzAAopCg5hdXRvc2NhbGluZy92MRIXSG9yaXpvbnRhbFBvZEF1dG9zY2FsZXISTQoaCgpwaHAtYXBhY2hlEgAaACIAKgAyADgAQgASKQohCgpEZXBsb3ltZW50EgpwaHAtYXBhY2hlGgdhcHBzL3YxEAEYCiAyGgQYACAAGgAiAA==',
    json: {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'php-apache' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'php-apache', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 10,
        targetCPUUtilizationPercentage: 50,
      },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    },
  },
  {
    command: 'kubectl autoscale deployment php-apache --max=3 --name=hpa2',
    body: 'azhzAAopCg5hdXRvc2NhbGluZy92MRIXSG9yaXpvbnRhbFBvZEF1dG9zY2FsZXISQwoUCgRocGEyEgAaACIAKgAyADgAQgASJQohCgpEZXBsb3ltZW50EgpwaHAtYXBhY2hlGgdhcHBzL3YxGAMaBBgAIAAaACIA',
    json: {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'hpa2' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'php-apache', apiVersion: 'apps/v1' }, maxReplicas: 3 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    },
  },
];

/** `kubectl debug node/node-1 --image=busybox`: the Pod it creates (kubectl has no --dry-run for debug). */
const DEBUG_POD =
  'azhzAAoJCgJ2MRIDUG9kEtQBCioKGm5vZGUtZGVidWdnZXItbm9kZS0xLThsOWJ0EgAaACIAKgAyADgAQgASkwEKEgoJaG9zdC1yb290EgUKAwoBLxJFCghkZWJ1Z2dlchIHYnVzeWJveCoAQgBKGAoJaG9zdC1yb290EAAaBS9ob3N0IgAyAGoAcgCAAQCIAQCQAQCiAQRGaWxlGgVOZXZlcjIAQgBKAFIGbm9kZS0xWAFgAWgBggEAigEAmgEAsgEOCgASBkV4aXN0cxoAIgDCAQAaEAoAGgAiACoAMgBKAFoAcgAaACIA';
/** `kubectl drain --disable-eviction`: the DeleteOptions body of each pod DELETE. */
const DRAIN_DELETE_OPTIONS = 'azhzAAoTCgJ2MRINRGVsZXRlT3B0aW9ucxIAGgAiAA==';

// A minimal protobuf writer, for bodies kubectl would never send.
function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}
const num = (field: number, value: number | bigint): number[] => [...varint(field * 8), ...varint(value)];
function bytes(field: number, value: string | number[]): number[] {
  const b = typeof value === 'string' ? [...Buffer.from(value)] : value;
  return [...varint(field * 8 + 2), ...varint(b.length), ...b];
}
function envelope(apiVersion: string, kind: string, raw: number[], extra: number[] = []): Buffer {
  return Buffer.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]),
    ...bytes(2, raw),
    ...extra,
  ]);
}
const meta = (name: string): number[] => bytes(1, bytes(1, name));

function rejects(body: Uint8Array, code: number, includes: string, expectedKind?: string): void {
  assert.throws(
    () => decodeProtobufBody(body, expectedKind),
    (e: unknown) => {
      assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
      assert.equal(e.code, code, e.message);
      assert.equal(e.reason, code === 400 ? 'BadRequest' : 'UnsupportedMediaType');
      assert.ok(e.message.includes(includes), `"${e.message}" lacks "${includes}"`);
      return true;
    },
  );
}

describe('protobuf request bodies: what kubectl create sends', () => {
  for (const f of FIXTURES) {
    it(`decodes ${f.command}`, () => {
      assert.deepEqual(decodeProtobufBody(Buffer.from(f.body, 'base64')), f.json);
    });
  }

  it('decodes the Pod of kubectl debug node/…', () => {
    const pod = decodeProtobufBody(Buffer.from(DEBUG_POD, 'base64'));
    assert.equal(pod.kind, 'Pod');
    const spec = pod.spec as Record<string, unknown>;
    assert.deepEqual(
      {
        nodeName: spec.nodeName,
        hostPID: spec.hostPID,
        hostNetwork: spec.hostNetwork,
        restartPolicy: spec.restartPolicy,
        volumes: spec.volumes,
        tolerations: spec.tolerations,
      },
      {
        nodeName: 'node-1',
        hostPID: true,
        hostNetwork: true,
        restartPolicy: 'Never',
        volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
        tolerations: [{ operator: 'Exists' }],
      },
    );
    assert.deepEqual(spec.containers, [
      {
        name: 'debugger',
        image: 'busybox',
        resources: {},
        volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
        terminationMessagePolicy: 'File',
      },
    ]);
  });

  it("decodes drain's DeleteOptions (no field set) to just its type", () => {
    assert.deepEqual(decodeProtobufBody(Buffer.from(DRAIN_DELETE_OPTIONS, 'base64')), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
    });
    const set = envelope('v1', 'DeleteOptions', [
      ...num(1, 0),
      ...bytes(2, bytes(1, 'u-1')),
      ...bytes(4, 'Foreground'),
      ...bytes(5, 'All'),
    ]);
    assert.deepEqual(decodeProtobufBody(set), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    });
  });
});

describe('protobuf request bodies: Go semantics', () => {
  it('keeps an explicit zero in a pointer field and drops it from an omitempty one', () => {
    // replicas, minReadySeconds, paused, revisionHistoryLimit
    const spec = [...num(1, 0), ...num(5, 0), ...num(7, 0), ...num(6, 0)];
    const d = decodeProtobufBody(envelope('apps/v1', 'Deployment', [...meta('d'), ...bytes(2, spec)]));
    const got = d.spec as Record<string, unknown>;
    assert.equal(got.replicas, 0);
    assert.equal(got.revisionHistoryLimit, 0);
    assert.equal('minReadySeconds' in got, false);
    assert.equal('paused' in got, false);
    // Struct values are always written, as encoding/json does: an absent template and strategy still appear.
    assert.deepEqual(got.template, { metadata: {}, spec: {} });
    assert.deepEqual(got.strategy, {});
  });

  it('writes non-omitempty values even when the body leaves them out', () => {
    const pdb = decodeProtobufBody(envelope('policy/v1', 'PodDisruptionBudget', meta('p')));
    assert.deepEqual(pdb.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    const svc = decodeProtobufBody(envelope('v1', 'Service', [...meta('s'), ...bytes(2, bytes(1, []))]));
    assert.deepEqual((svc.spec as { ports: unknown }).ports, [{ port: 0, targetPort: 0 }]);
  });

  it('reads negative and sign-extended integers as Go does', () => {
    const d = decodeProtobufBody(envelope('apps/v1', 'Deployment', [...meta('d'), ...bytes(2, num(1, -1))]));
    assert.equal((d.spec as { replicas: number }).replicas, -1);
  });

  it('formats Time as RFC 3339 in UTC, whole seconds, and omits the zero Time', () => {
    const stamp = [...num(1, 1700000000), ...num(2, 999_999_999)];
    const m = decodeProtobufBody(
      envelope('v1', 'ConfigMap', bytes(1, [...bytes(1, 'c'), ...bytes(8, []), ...bytes(9, stamp)])),
    );
    assert.deepEqual(m.metadata, { name: 'c', deletionTimestamp: '2023-11-14T22:13:20Z' });
  });

  it('turns managedFields FieldsV1 bytes into the JSON they hold', () => {
    const entry = [
      ...bytes(1, 'kubectl'),
      ...bytes(2, 'Update'),
      ...bytes(3, 'v1'),
      ...bytes(4, num(1, 1700000000)),
      ...bytes(6, 'FieldsV1'),
      ...bytes(7, bytes(1, '{"f:data":{"f:a":{}}}')),
    ];
    const m = decodeProtobufBody(envelope('v1', 'ConfigMap', bytes(1, [...bytes(1, 'c'), ...bytes(17, entry)])));
    assert.deepEqual(m.metadata.managedFields, [
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2023-11-14T22:13:20Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ]);
  });

  it('sorts map keys, lets a repeated key win last, and merges a repeated embedded message', () => {
    const entry = (k: string, v: string): number[] => bytes(2, [...bytes(1, k), ...bytes(2, v)]);
    const raw = [
      ...bytes(1, bytes(1, 'c')),
      ...entry('b', '1'),
      ...entry('a', '2'),
      ...entry('b', '3'),
      ...bytes(1, bytes(11, [...bytes(1, 'l'), ...bytes(2, 'v')])),
    ];
    const m = decodeProtobufBody(envelope('v1', 'ConfigMap', raw));
    assert.deepEqual(Object.keys(m.data as object), ['a', 'b']);
    assert.deepEqual(m.data, { a: '2', b: '3' });
    assert.deepEqual(m.metadata, { name: 'c', labels: { l: 'v' } });
  });

  it('reads a repeated integer field packed or not', () => {
    const groups = (packed: boolean): unknown => {
      const list = packed ? bytes(4, [...varint(1), ...varint(2)]) : [...num(4, 1), ...num(4, 2)];
      const spec = bytes(14, list); // PodSpec.securityContext.supplementalGroups
      const pod = decodeProtobufBody(envelope('v1', 'Pod', [...meta('p'), ...bytes(2, spec)]));
      return (pod.spec as { securityContext: unknown }).securityContext;
    };
    assert.deepEqual(groups(true), { supplementalGroups: [1, 2] });
    assert.deepEqual(groups(false), { supplementalGroups: [1, 2] });
  });
});

describe('protobuf request bodies: malformed bytes are 400', () => {
  const good = Buffer.from(FIXTURES[0].body, 'base64');

  it('without the k8s envelope magic', () => {
    rejects(
      Buffer.from('{"kind":"ConfigMap"}'),
      400,
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
      'ConfigMap',
    );
    rejects(Buffer.alloc(0), 400, 'must be of type ConfigMap', 'ConfigMap');
  });

  it('cut short inside its type or its object bytes', () => {
    // A protobuf cut at a field boundary is itself well-formed; every cut inside a length-delimited value is not.
    const typeEnd = 6 + good[5]; // magic, tag, length, TypeMeta
    const rawEnd = typeEnd + 2 + good[typeEnd + 1];
    const cuts = [...Array(good.length).keys()].filter((c) => (c >= 5 && c < typeEnd) || (c > typeEnd && c < rawEnd));
    assert.ok(cuts.length > 50);
    for (const cut of cuts) {
      assert.throws(
        () => decodeProtobufBody(good.subarray(0, cut)),
        (e: unknown) => e instanceof ApiError && e.code === 400,
        `cut at ${cut}`,
      );
    }
    rejects(good.subarray(0, 20), 400, 'unexpected EOF', 'ConfigMap');
  });

  it('with a varint longer than ten bytes or a length past the end', () => {
    rejects(
      envelope('v1', 'ConfigMap', [0x20, ...Array<number>(11).fill(0xff)]),
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: integer overflow',
    );
    rejects(envelope('v1', 'ConfigMap', [0x0a, 0x64, 0x0a, 0x01]), 400, 'unexpected EOF');
  });

  it('with field number 0 or a wire type that does not match the field', () => {
    rejects(envelope('v1', 'ConfigMap', [0x00, 0x00]), 400, 'illegal tag 0');
    rejects(envelope('v1', 'ConfigMap', num(1, 5)), 400, 'wrong wireType = 0 for field metadata');
    rejects(envelope('v1', 'ConfigMap', [0x0b]), 400, 'wrong wireType = 3');
  });

  it('with an IntOrString of an impossible type, a Time out of range or FieldsV1 that is not JSON', () => {
    rejects(
      envelope('policy/v1', 'PodDisruptionBudget', [...meta('p'), ...bytes(2, bytes(1, num(1, 2)))]),
      400,
      'impossible IntOrString.Type',
    );
    rejects(
      envelope('v1', 'ConfigMap', bytes(1, bytes(8, num(1, 253402300800)))),
      400,
      'year outside of range [0,9999]',
    );
    rejects(
      envelope('v1', 'ConfigMap', bytes(1, bytes(17, bytes(7, bytes(1, '{nope'))))),
      400,
      'FieldsV1 does not hold JSON',
    );
  });

  it('when it names no kind', () => {
    rejects(envelope('v1', '', meta('c')), 400, "Object 'Kind' is missing", 'ConfigMap');
  });

  it(`when it would decode to more than ${MAX_VALUES} values`, () => {
    // Each empty Container costs two bytes on the wire and materialises as { name: '', resources: {} }.
    const spec = Buffer.alloc(2 * (MAX_VALUES / 2 + 1), Buffer.from([0x12, 0x00])); // PodSpec.containers, repeated
    const raw = Buffer.concat([Buffer.from([...meta('p'), 0x12, ...varint(spec.length)]), spec]);
    const body = Buffer.concat([
      envelope('v1', 'Pod', []).subarray(0, -2),
      Buffer.from([0x12, ...varint(raw.length)]),
      raw,
    ]);
    rejects(body, 400, `more than ${MAX_VALUES} values`);
  });
});

describe('protobuf request bodies: what this server does not describe is 415', () => {
  it('an unknown field number, named with its message and path', () => {
    rejects(
      envelope('v1', 'ConfigMap', [...meta('c'), ...bytes(99, 'x')]),
      415,
      'field 99 of io.k8s.api.core.v1.ConfigMap at .',
    );
    const container = [...bytes(1, 'c'), ...num(99, 1)];
    const spec = bytes(3, bytes(2, bytes(2, container))); // Deployment.spec.template.spec.containers[0]
    rejects(
      envelope('apps/v1', 'Deployment', [...meta('d'), ...bytes(2, spec)]),
      415,
      'field 99 of io.k8s.api.core.v1.Container at .spec.template.spec.containers[0]',
    );
  });

  it('a kind without a descriptor', () => {
    rejects(envelope('apps/v1', 'StatefulSet', meta('s')), 415, 'kind StatefulSet of apiVersion "apps/v1"');
    rejects(envelope('authentication.k8s.io/v1', 'TokenRequest', []), 415, 'kind TokenRequest');
  });

  it('a message type left undescribed (a flexVolume)', () => {
    const volume = [...bytes(1, 'v'), ...bytes(2, bytes(12, bytes(1, 'driver')))]; // Volume embeds VolumeSource as field 2
    rejects(
      envelope('v1', 'Pod', [...meta('p'), ...bytes(2, bytes(1, volume))]),
      415,
      'io.k8s.api.core.v1.FlexVolumeSource at .spec.volumes[0]',
    );
  });

  it('a compressed or foreign payload, or an unknown envelope field', () => {
    rejects(envelope('v1', 'ConfigMap', meta('c'), bytes(3, 'gzip')), 415, 'contentEncoding "gzip"');
    rejects(
      envelope('v1', 'ConfigMap', meta('c'), bytes(4, 'application/json')),
      415,
      'contentType "application/json"',
    );
    rejects(envelope('v1', 'ConfigMap', meta('c'), bytes(7, 'x')), 415, 'field 7 of the envelope');
  });

  it('an int64 that a JavaScript number cannot hold exactly', () => {
    rejects(
      envelope('v1', 'ConfigMap', bytes(1, num(7, 2n ** 60n))),
      415,
      'the int64 1152921504606846976 at .metadata.generation',
    );
  });
});

describe('protobuf descriptor tables', () => {
  const registry = protobufRegistry();

  it('resolve every message they name, except four legacy volume sources left undescribed on purpose', () => {
    const missing = new Set<string>();
    for (const desc of registry.values()) {
      for (const f of desc.fields) {
        if (
          !isScalar(f.type) &&
          !registry.has(f.type) &&
          !['Time', 'Quantity', 'IntOrString', 'FieldsV1'].includes(f.type)
        )
          missing.add(f.type);
      }
    }
    assert.deepEqual([...missing].sort(), [
      'FlexVolumeSource',
      'FlockerVolumeSource',
      'QuobyteVolumeSource',
      'StorageOSVolumeSource',
    ]);
  });

  it('describe every kind they accept, which then decodes from an empty body to its zero object', () => {
    for (const [type, message] of Object.entries(PROTOBUF_KINDS)) {
      assert.ok(registry.has(message), message);
      const slash = type.lastIndexOf('/');
      const obj = decodeProtobufBody(envelope(type.slice(0, slash), type.slice(slash + 1), []));
      assert.equal(obj.kind, message);
      assert.deepEqual(obj.metadata, {}, type);
    }
  });

  it(`nest no deeper than ${MAX_DEPTH} and hold no cycle, so the depth guard is a backstop`, () => {
    const depth = (name: string, stack: string[]): number => {
      assert.ok(!stack.includes(name), `cycle: ${[...stack, name].join(' → ')}`);
      const desc = registry.get(name);
      if (!desc) return 0;
      return 1 + Math.max(0, ...desc.fields.map((f) => depth(f.type, [...stack, name])));
    };
    const deepest = Math.max(...[...registry.keys()].map((n) => depth(n, [])));
    assert.ok(deepest > 10 && deepest < MAX_DEPTH, `deepest ${deepest}`);
  });
});
