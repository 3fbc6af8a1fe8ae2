/**
 * k8s.io/apimachinery/pkg/apis/meta/v1: object metadata, selectors, delete
 * options. Field numbers and JSON shapes from upstream's types.go (v1.32).
 */
import type { MessageTable } from '../schema';

export const META: MessageTable = {
  pkg: 'io.k8s.apimachinery.pkg.apis.meta.v1',
  messages: {
    ObjectMeta:
      'name=1:s generateName=2:s namespace=3:s selfLink=4:s uid=5:s resourceVersion=6:s generation=7:i64 ' +
      'creationTimestamp=8:Time deletionTimestamp=9:Time? deletionGracePeriodSeconds=10:i64? labels=11:{}s ' +
      'annotations=12:{}s ownerReferences=13:[]OwnerReference finalizers=14:[]s managedFields=17:[]ManagedFieldsEntry',
    OwnerReference: 'apiVersion=5:s! kind=1:s! name=3:s! uid=4:s! controller=6:b? blockOwnerDeletion=7:b?',
    ManagedFieldsEntry:
      'manager=1:s operation=2:s apiVersion=3:s time=4:Time? fieldsType=6:s fieldsV1=7:FieldsV1? subresource=8:s',
    LabelSelector: 'matchLabels=1:{}s matchExpressions=2:[]LabelSelectorRequirement',
    LabelSelectorRequirement: 'key=1:s! operator=2:s! values=3:[]s',
    Condition: 'type=1:s! status=2:s! observedGeneration=3:i64 lastTransitionTime=4:Time reason=5:s! message=6:s!',
    DeleteOptions:
      'gracePeriodSeconds=1:i64? preconditions=2:Preconditions? orphanDependents=3:b? propagationPolicy=4:s? ' +
      'dryRun=5:[]s ignoreStoreReadErrorWithClusterBreakingPotential=6:b?',
    Preconditions: 'uid=1:s? resourceVersion=2:s?',
  },
};
