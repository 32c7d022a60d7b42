import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Metadatas = ReturnType<Lookup>;

const installed = new WeakSet<MetadataStorage>();

/**
 * Remembers class-validator's answer to "which rules apply to this class".
 * class-validator works it out again on every validate call by testing the
 * class against every decorated class of the process (its issue #2686): with
 * the few hundred request classes of the contracts, that scan was the largest
 * single cost of validating a payload (docs/PERFORMANCE.md). The answer
 * cannot change once the class exists, as its own rules and its ancestors'
 * are registered when the classes are defined; a rule registered later (by
 * `registerDecorator` or a schema) still empties the cache, so no answer is
 * ever stale. Idempotent: installing twice changes nothing.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let answers = new WeakMap<object, Map<string, Metadatas>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // class-validator asks for the rules of the object's `constructor`, which a payload's own key of that name
    // replaces. Only classes are cached (a string or number cannot be a WeakMap key); anything else is
    // class-validator's to answer, but null, on which it would throw (`null.prototype`), failing the request as
    // internal: null has no rules, so the payload is refused as an unknown value.
    if (typeof target !== 'function') return target == null ? [] : lookup(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = answers.get(target);
    if (!byOptions) answers.set(target, (byOptions = new Map()));
    let answer = byOptions.get(key);
    if (!answer) byOptions.set(key, (answer = lookup(target, schema, always, strictGroups, groups)));
    return answer;
  };
  storage.addValidationMetadata = (metadata) => {
    answers = new WeakMap();
    addRule(metadata);
  };
}
