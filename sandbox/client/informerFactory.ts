/**
 * One shared informer per resource (client-go's SharedInformerFactory): every
 * controller that watches pods shares one cache and one watch.
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { ObjectsByResource, ResourceName } from '../api/resourceObjects';
import { Informer } from './informer';

export class InformerFactory {
  private readonly informers = new Map<string, Informer>();

  constructor(private readonly api: ApiServer) {}

  /**
   * The shared informer for a resource (`pods`, `deployments`, …), started on first use. A resource of
   * `ObjectsByResource` gets an informer of its type (`get('pods')` → `Informer<Typed<Pod>>`).
   */
  get<R extends ResourceName>(resource: R): Informer<ObjectsByResource[R]>;
  get(resource: string): Informer;
  get(resource: string): Informer {
    const plural = this.api.resolve(resource).plural;
    let inf = this.informers.get(plural);
    if (!inf) {
      inf = new Informer(this.api, plural);
      this.informers.set(plural, inf);
      inf.start();
    }
    return inf;
  }

  stopAll(): void {
    for (const inf of this.informers.values()) inf.stop();
    this.informers.clear();
  }
}
