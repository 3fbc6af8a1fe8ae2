/**
 * The schema lives with the sandbox, which serves it as OpenAPI and merges by it; the language server reads the same
 * one.
 */
export * from '../../../sandbox/schema/schema';
