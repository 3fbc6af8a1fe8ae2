import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../../../sandbox/admission/validation/fieldError';
import {
  duplicate,
  forbidden,
  goLiteral,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
} from '../../../sandbox/admission/validation/fieldError';
import { fieldErrorMessage, formatFieldError } from '../../../sandbox/admission/validation/format';

describe('fieldErrorMessage', () => {
  const table: [FieldError, string][] = [
    [required('c', 'spec.x'), 'Required value'],
    [
      required('c', 'metadata.name', 'name or generateName is required'),
      'Required value: name or generateName is required',
    ],
    [invalid('c', 'f', 'x', 'must be …'), 'Invalid value: "x": must be …'],
    [
      invalid('c', 'f', 0, 'must be between 1 and 65535, inclusive'),
      'Invalid value: 0: must be between 1 and 65535, inclusive',
    ],
    [invalid('c', 'f', { app: 'web', a: 'b' }, 'm'), 'Invalid value: map[string]string{"a":"b", "app":"web"}: m'],
    [invalid('c', 'f', ['a', 'b'], 'm'), 'Invalid value: []string{"a", "b"}: m'],
    [invalid('c', 'f', goLiteral('&v1.X{}'), 'm'), 'Invalid value: &v1.X{}: m'],
    [invalid('c', 'f', true, 'm'), 'Invalid value: true: m'],
    [
      notSupported('c', 'f', 'tcp', ['SCTP', 'TCP', 'UDP']),
      'Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
    ],
    [duplicate('c', 'f', 'web'), 'Duplicate value: "web"'],
    [forbidden('c', 'f', 'may not be set'), 'Forbidden: may not be set'],
    [tooLong('c', 'f', 63), 'Too long: may not be more than 63 bytes'],
    [notFound('c', 'f', 'data'), 'Not found: "data"'],
  ];
  for (const [e, text] of table) test(text, () => assert.equal(fieldErrorMessage(e), text));

  test('formatFieldError prefixes the field', () => {
    assert.equal(
      formatFieldError(required('c', 'spec.containers[0].image')),
      'spec.containers[0].image: Required value',
    );
  });
});
