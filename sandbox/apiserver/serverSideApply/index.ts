/**
 * Server-side apply and managedFields: the field manager (fieldManager.ts)
 * and the pieces it is built from — field sets and their FieldsV1 form,
 * object shapes from the schema, merge and compare, conflicts.
 */
export { applyConfiguration, updateManagedFields } from './fieldManager';
export type { FieldManagerContext } from './fieldManager';
export { checkManagedFieldsShape, decodeManaged, encodeManaged, sameExceptTimes } from './managedFields';
export type { Managed, ManagerEntry, Operation } from './managedFields';
export { FieldSet } from './fieldSet';
export { fromFieldsV1, toFieldsV1 } from './fieldsV1';
export { pathText } from './pathElement';
export { conflictError } from './conflicts';
