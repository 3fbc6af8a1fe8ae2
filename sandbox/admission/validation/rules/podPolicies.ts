/** Pod-level enums and numbers: restartPolicy, dnsPolicy, grace period, deadline, nodeSelector. */
import { forbidden, invalid, notSupported, required, type FieldError } from '../fieldError';
import { inclusiveRangeError } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';
import { strMap } from '../access';
import { validateLabels } from './labels';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

function enumField(code: string, field: string, value: unknown, allowed: readonly string[]): FieldError[] {
  if (value === undefined || value === '') return [required(code, field)];
  if (typeof value !== 'string' || !allowed.includes(value)) return [notSupported(code, field, value, allowed)];
  return [];
}

export const podRestartPolicy = podSpecRule(
  'pod-restart-policy',
  'restartPolicy is Always, OnFailure or Never.',
  ({ spec, path }) => enumField('pod-restart-policy', `${path}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES),
);

export const podDnsPolicy = podSpecRule(
  'pod-dns-policy',
  'dnsPolicy is ClusterFirstWithHostNet, ClusterFirst, Default or None.',
  ({ spec, path }) => enumField('pod-dns-policy', `${path}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES),
);

export const podTerminationGracePeriod = podSpecRule(
  'pod-termination-grace-period',
  'terminationGracePeriodSeconds is not negative.',
  ({ spec, path }) => {
    const v = spec.terminationGracePeriodSeconds;
    if (v === undefined || v === null) return [];
    if (typeof v !== 'number' || v < 0)
      return [
        invalid(
          'pod-termination-grace-period',
          `${path}.terminationGracePeriodSeconds`,
          v,
          'must be greater than or equal to 0',
        ),
      ];
    return [];
  },
);

const MAX_INT32 = 2147483647;

export const podActiveDeadlineSeconds = podSpecRule(
  'pod-active-deadline-seconds',
  'activeDeadlineSeconds is between 1 and 2147483647; workload templates other than Job may not set it.',
  ({ spec, path }, _ctx, owner) => {
    const code = 'pod-active-deadline-seconds';
    const v = spec.activeDeadlineSeconds;
    if (v === undefined || v === null) return [];
    const field = `${path}.activeDeadlineSeconds`;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_INT32)
      return [invalid(code, field, v, inclusiveRangeError(1, MAX_INT32))];
    if (owner.kind === 'Deployment' || owner.kind === 'ReplicaSet')
      return [forbidden(code, field, 'activeDeadlineSeconds in ReplicaSet is not Supported')];
    if (owner.kind === 'DaemonSet')
      return [invalid(code, field, v, 'activeDeadlineSeconds in DaemonSet is not Supported')];
    if (owner.kind === 'StatefulSet') return [invalid(code, field, v, 'must not be specified')];
    return [];
  },
);

export const podNodeSelector = podSpecRule(
  'pod-node-selector',
  'nodeSelector keys and values are valid labels.',
  ({ spec, path }) => validateLabels('pod-node-selector', strMap(spec, 'nodeSelector'), `${path}.nodeSelector`),
);
