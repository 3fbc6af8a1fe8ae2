/** PersistentVolumeClaim spec (core validation `ValidatePersistentVolumeClaimSpec`). */
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../../../api/quantity';
import { arr, obj } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

export const pvcSpec: ValidationRule = {
  code: 'pvc-spec',
  description:
    'accessModes lists at least one known mode, resources.requests.storage is a positive quantity, volumeMode is Block or Filesystem.',
  kinds: ['PersistentVolumeClaim'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const errs: FieldError[] = [];
    const modes = arr(spec, 'accessModes');
    if (modes.length === 0) errs.push(required(code, 'spec.accessModes', 'at least 1 access mode is required'));
    for (const m of modes)
      if (typeof m !== 'string' || !ACCESS_MODES.includes(m))
        errs.push(notSupported(code, 'spec.accessModes', m, ACCESS_MODES));
    const storage = obj(obj(spec, 'resources'), 'requests')?.storage;
    const path = 'spec.resources.requests[storage]';
    if (storage === undefined || storage === null) errs.push(required(code, path));
    else {
      const q = typeof storage === 'string' || typeof storage === 'number' ? parseQuantity(storage) : undefined;
      if (!q) errs.push(invalid(code, path, storage, QUANTITY_FORMAT_ERROR));
      else if (q.nanos <= 0n) errs.push(invalid(code, path, q.toString(), 'must be greater than zero'));
    }
    const vm = spec?.volumeMode;
    if (vm !== undefined && vm !== null && (typeof vm !== 'string' || !VOLUME_MODES.includes(vm)))
      errs.push(notSupported(code, 'spec.volumeMode', vm, VOLUME_MODES));
    return errs;
  },
};
