// Test-only bootstrap: runs the TypeScript sandbox worker inside a worker thread
// by registering tsx first (a Worker does not inherit the parent's loader hooks).
import { register } from 'tsx/esm/api';

register();
await import('../../../client/src/worker/main.ts');
