import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configMap, namespace, pod, role, service } from './fixtures';
import { validate, variant } from './helpers';
import { runCases } from './cases';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('metadata rules', () => {
  runCases([
    {
      name: 'name missing',
      obj: variant(configMap, (o) => delete o.metadata.name),
      want: ['metadata-name | metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'generateName alone is fine, trailing dash allowed',
      obj: variant(configMap, (o) => {
        delete o.metadata.name;
        o.metadata.generateName = 'cfg-';
      }),
      want: [],
    },
    {
      name: 'bad generateName',
      obj: variant(configMap, (o) => {
        delete o.metadata.name;
        o.metadata.generateName = 'Cfg-';
      }),
      want: [`metadata-name | metadata.generateName: Invalid value: "Cfg-": ${SUBDOMAIN}`],
    },
    {
      name: 'subdomain name for a ConfigMap',
      obj: variant(configMap, (o) => (o.metadata.name = 'My_Config')),
      want: [`metadata-name | metadata.name: Invalid value: "My_Config": ${SUBDOMAIN}`],
    },
    {
      name: 'dots are fine in a ConfigMap name',
      obj: variant(configMap, (o) => (o.metadata.name = 'app.config')),
      want: [],
    },
    {
      name: 'Namespace names are DNS labels',
      obj: variant(namespace, (o) => (o.metadata.name = 'team.a')),
      want: [`metadata-name | metadata.name: Invalid value: "team.a": ${LABEL}`],
    },
    {
      name: 'Service names are DNS-1035 labels',
      obj: variant(service, (o) => (o.metadata.name = '1web')),
      want: [`metadata-name | metadata.name: Invalid value: "1web": ${DNS1035}`],
    },
    {
      name: 'too long subdomain',
      obj: variant(configMap, (o) => (o.metadata.name = 'a'.repeat(254))),
      want: [`metadata-name | metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`],
    },
    {
      name: 'RBAC names are path segments',
      obj: variant(role, (o) => (o.metadata.name = 'a/b')),
      want: [`metadata-name | metadata.name: Invalid value: "a/b": may not contain '/'`],
    },
    {
      name: 'namespace must be a label',
      obj: variant(configMap, (o) => (o.metadata.namespace = 'Team')),
      want: [`metadata-namespace | metadata.namespace: Invalid value: "Team": ${LABEL}`],
    },
    {
      name: 'label key and value',
      obj: variant(configMap, (o) => (o.metadata.labels = { 'bad key': 'ok', good: 'bad value!' })),
      want: [
        `metadata-labels | metadata.labels: Invalid value: "bad key": ${NAME_PART}`,
        `metadata-labels | metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`,
      ],
    },
    {
      name: 'label prefix and long value',
      obj: variant(configMap, (o) => (o.metadata.labels = { 'Example.com/x': 'v'.repeat(64) })),
      want: [
        `metadata-labels | metadata.labels: Invalid value: "Example.com/x": prefix part ${SUBDOMAIN}`,
        `metadata-labels | metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
      ],
    },
    {
      name: 'annotations too large',
      obj: variant(configMap, (o) => (o.metadata.annotations = { big: 'x'.repeat(256 * 1024) })),
      want: ['metadata-annotations | metadata.annotations: Too long: may not be more than 262144 bytes'],
    },
    {
      name: 'finalizers',
      obj: variant(configMap, (o) => (o.metadata.finalizers = ['kubernetes', 'example.com/cleanup', 'custom'])),
      want: [
        'metadata-finalizers | metadata.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
    {
      name: 'owner references',
      obj: variant(pod, (o) => {
        o.metadata.ownerReferences = [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
          { apiVersion: 'apps/', kind: '', name: 'b', uid: '', controller: true },
        ];
      }),
      want: [
        'metadata-owner-references | metadata.ownerReferences[1].apiVersion: Invalid value: "apps/": version must not be empty',
        'metadata-owner-references | metadata.ownerReferences[1].kind: Invalid value: "": kind must not be empty',
        'metadata-owner-references | metadata.ownerReferences[1].uid: Invalid value: "": uid must not be empty',
        'metadata-owner-references | metadata.ownerReferences: Invalid value: "ReplicaSet/a, /b": Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and /b',
      ],
    },
  ]);

  test('errors carry the whole FieldError shape', () => {
    assert.deepEqual(validate(variant(namespace, (o) => (o.metadata.name = 'A'))), [
      { code: 'metadata-name', type: 'FieldValueInvalid', field: 'metadata.name', value: 'A', detail: LABEL },
    ]);
  });
});
