/**
 * Pod Security Admission (upstream: staging/src/k8s.io/pod-security-admission: admission/admission.go EvaluatePod /
 * EvaluatePodController, policy/check_*.go, policy/registry.go for the order), through the API server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import { newApi, statusOf } from '../../fixtures';
import { ApiServer } from '../../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../../sandbox/clock/virtualClock';
import type { PodSecurityConfiguration } from '../../../../sandbox/admission/plugins/index';

function configuredApi(podSecurity: PodSecurityConfiguration): ApiServer {
  return new ApiServer({ clock: new VirtualClock(), random: 1, podSecurity });
}

function namespace(name: string, labels: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

function pod(name: string, ns: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }], ...spec },
  };
}

const RESTRICTED_OK = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [
    {
      name: 'nginx',
      image: 'nginx',
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ],
};

describe('PodSecurity enforce', () => {
  test('restricted refuses a plain pod with every failing check, in upstream order and wording', () => {
    const { api } = newApi();
    api.create(namespace('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    const s = statusOf(() => api.create(pod('nginx', 'secure')));
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(
      s.message,
      'pods "nginx" is forbidden: violates PodSecurity "restricted:latest": ' +
        'allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    assert.equal(api.tryGet('pods', 'secure', 'nginx'), undefined);
  });

  test('a pod that meets restricted is admitted', () => {
    const { api } = newApi();
    api.create(namespace('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    assert.ok(api.create(pod('ok', 'secure', RESTRICTED_OK)));
  });

  test('baseline checks come first; restricted replaces the baseline hostPath check with restricted volume types', () => {
    const { api } = newApi();
    api.create(
      namespace('strict', {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/enforce-version': 'v1.32',
      }),
    );
    const s = statusOf(() =>
      api.create(
        pod('host', 'strict', {
          ...RESTRICTED_OK,
          hostNetwork: true,
          volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }],
          containers: [{ ...RESTRICTED_OK.containers[0], ports: [{ containerPort: 80, hostPort: 8080 }] }],
        }),
      ),
    );
    assert.equal(
      s.message,
      'pods "host" is forbidden: violates PodSecurity "restricted:v1.32": host namespaces (hostNetwork=true), ' +
        'hostPort (container "nginx" uses hostPort 8080), ' +
        'restricted volume types (volume "logs" uses restricted volume type "hostPath")',
    );
  });

  test('baseline: privileged containers, added capabilities and hostPath volumes', () => {
    const { api } = newApi();
    api.create(namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const s = statusOf(() =>
      api.create(
        pod('priv', 'base', {
          volumes: [{ name: 'root', hostPath: { path: '/' } }],
          containers: [
            { name: 'a', image: 'busybox', securityContext: { privileged: true } },
            {
              name: 'b',
              image: 'busybox',
              securityContext: { capabilities: { add: ['SYS_ADMIN', 'NET_ADMIN', 'CHOWN'] } },
            },
          ],
        }),
      ),
    );
    assert.equal(
      s.message,
      'pods "priv" is forbidden: violates PodSecurity "baseline:latest": ' +
        'non-default capabilities (container "b" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'hostPath volumes (volume "root"), privileged (container "a" must not set securityContext.privileged=true)',
    );
    // A plain pod meets baseline.
    assert.ok(api.create(pod('plain', 'base')));
  });

  test('namespaces without labels, and the privileged level, admit anything', () => {
    const { api } = newApi();
    api.create(namespace('open', { 'pod-security.kubernetes.io/enforce': 'privileged' }));
    const spec = { hostPID: true, containers: [{ name: 'x', image: 'x', securityContext: { privileged: true } }] };
    assert.ok(api.create(pod('a', 'open', spec)));
    assert.ok(api.create(pod('b', 'default', spec)));
  });
});

describe('PodSecurity warn', () => {
  test('warn returns the violations as a warning and admits the pod', () => {
    const { api } = newApi();
    api.create(
      namespace('audit', {
        'pod-security.kubernetes.io/enforce': 'baseline',
        'pod-security.kubernetes.io/warn': 'restricted',
      }),
    );
    const warnings: string[] = [];
    api.create(pod('w', 'audit', { ...RESTRICTED_OK, securityContext: { runAsNonRoot: true } }), {
      warn: (t) => warnings.push(t),
    });
    assert.deepEqual(warnings, [
      'would violate PodSecurity "restricted:latest": seccompProfile (pod or container "nginx" must set ' +
        'securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ]);
  });

  test('a Deployment whose template breaks enforce is stored, with a warning (its pods will be refused)', () => {
    const { api } = newApi();
    api.create(namespace('secure', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const warnings: string[] = [];
    const d = api.create(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'secure' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { hostNetwork: true, containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      },
      { warn: (t) => warnings.push(t) },
    );
    assert.ok(d.metadata.uid);
    assert.deepEqual(warnings, ['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)']);
  });
});

describe('PodSecurity baseline: AppArmor and SELinux (check_appArmorProfile.go, check_seLinuxOptions.go)', () => {
  test('an Unconfined AppArmor profile (pod, containers) and a forbidden beta annotation are refused', () => {
    const { api } = newApi();
    api.create(namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const s = statusOf(() =>
      api.create({
        ...pod('aa', 'base', {
          securityContext: { appArmorProfile: { type: 'Unconfined' } },
          containers: [
            { name: 'a', image: 'nginx', securityContext: { appArmorProfile: { type: 'Unconfined' } } },
            { name: 'b', image: 'nginx', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } },
          ],
        }),
        metadata: {
          name: 'aa',
          namespace: 'base',
          annotations: { 'container.apparmor.security.beta.kubernetes.io/b': 'unconfined' },
        },
      }),
    );
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      'pods "aa" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profiles (pod and ' +
        'container "a" and annotation must not set AppArmor profile type to "Unconfined", ' +
        '"container.apparmor.security.beta.kubernetes.io/b="unconfined"")',
    );
  });

  test('RuntimeDefault, Localhost, runtime/default and localhost/* profiles are allowed', () => {
    const { api } = newApi();
    api.create(namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const p = api.create({
      ...pod('ok', 'base', {
        securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-apparmor-example' } },
        containers: [{ name: 'a', image: 'nginx', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }],
      }),
      metadata: {
        name: 'ok',
        namespace: 'base',
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/a': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/b': 'localhost/mine',
        },
      },
    });
    assert.ok(p.metadata.uid);
  });

  test('SELinux: a custom type is refused (user and role named with it); container_t is allowed', () => {
    const { api } = newApi();
    api.create(namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const s = statusOf(() =>
      api.create(
        pod('se', 'base', {
          securityContext: { seLinuxOptions: { type: 'spc_t', user: 'system_u' } },
          containers: [
            { name: 'a', image: 'nginx', securityContext: { seLinuxOptions: { type: 'unconfined_t', role: 'r' } } },
          ],
        }),
      ),
    );
    assert.equal(
      s.message,
      'pods "se" is forbidden: violates PodSecurity "baseline:latest": seLinuxOptions (pod and container "a" set ' +
        'forbidden securityContext.seLinuxOptions: types "spc_t", "unconfined_t"; user may not be set; ' +
        'role may not be set)',
    );
    const ok = api.create(
      pod('se-ok', 'base', { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0:c123,c456' } } }),
    );
    assert.ok(ok.metadata.uid);
  });

  test('SELinux: a user alone is refused; as upstream the detail then names no data', () => {
    const { api } = newApi();
    api.create(namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const s = statusOf(() =>
      api.create(pod('u', 'base', { securityContext: { seLinuxOptions: { user: 'sysadm_u' } } })),
    );
    assert.equal(
      s.message,
      'pods "u" is forbidden: violates PodSecurity "baseline:latest": seLinuxOptions (pod set forbidden ' +
        'securityContext.seLinuxOptions: )',
    );
  });
});

describe('PodSecurity configuration (PodSecurityConfiguration: defaults and exemptions)', () => {
  test('defaults apply to namespaces without the label; a label overrides them', () => {
    const api = configuredApi({ defaults: { enforce: 'baseline' } });
    api.create(namespace('plain', {}));
    api.create(namespace('open', { 'pod-security.kubernetes.io/enforce': 'privileged' }));
    const s = statusOf(() => api.create(pod('host', 'plain', { hostNetwork: true })));
    assert.equal(
      s.message,
      'pods "host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
    );
    assert.ok(api.create(pod('host', 'open', { hostNetwork: true })).metadata.uid);
  });

  test('an exempt namespace admits anything, without warnings', () => {
    const api = configuredApi({ exemptions: { namespaces: ['ops'] } });
    api.create(
      namespace('ops', {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/warn': 'restricted',
      }),
    );
    const warnings: string[] = [];
    const p = api.create(pod('host', 'ops', { hostNetwork: true }), { warn: (t) => warnings.push(t) });
    assert.ok(p.metadata.uid);
    assert.deepEqual(warnings, []);
  });

  test('a pod of an exempt runtimeClassName is admitted; the same pod without it is refused', () => {
    const api = configuredApi({ exemptions: { runtimeClasses: ['kata'] } });
    api.create(namespace('secure', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    // (RuntimeClass admission refuses a pod naming a class that does not exist.)
    api.create({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' });
    assert.equal(statusOf(() => api.create(pod('a', 'secure', { hostPID: true }))).code, 403);
    assert.ok(api.create(pod('b', 'secure', { hostPID: true, runtimeClassName: 'kata' })).metadata.uid);
  });
});
