export type DbKind = 'pglite' | 'postgres';

/** The kinds available, less those a `TEST_DATABASES` list leaves out; a name it does not know is an error. */
export function selectKinds(available: DbKind[], wanted: string | undefined): DbKind[] {
  if (wanted === undefined || wanted.trim() === '') return available;
  const names = wanted.split(',').map((name) => name.trim());
  for (const name of names)
    if (name !== 'pglite' && name !== 'postgres')
      throw new Error(`TEST_DATABASES: "${name}" is neither pglite nor postgres`);
  const kept = available.filter((kind) => names.includes(kind));
  if (kept.length === 0)
    throw new Error(
      `TEST_DATABASES=${wanted} keeps none of ${available.join(', ')} (postgres needs TEST_DATABASE_URL)`,
    );
  return kept;
}
