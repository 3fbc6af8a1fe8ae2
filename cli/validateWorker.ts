/** A `validate --jobs` pool worker, run from source (the bundle's entry, cli/bin.ts, serves the same role). */
import { serveValidateWorker } from './validatePool';

serveValidateWorker();
