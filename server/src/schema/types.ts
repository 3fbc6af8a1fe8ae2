export type * from '../../../sandbox/schema/types';
