import { describe, expect, it } from 'vitest';
import { selectKinds } from '../helpers/test-databases';

describe('TEST_DATABASES, the databases a run of the API tests meets', () => {
  it('keeps every database available when it is not set', () => {
    expect(selectKinds(['pglite', 'postgres'], undefined)).toEqual(['pglite', 'postgres']);
    expect(selectKinds(['pglite'], '')).toEqual(['pglite']);
  });

  it('keeps only those it names', () => {
    expect(selectKinds(['pglite', 'postgres'], 'postgres')).toEqual(['postgres']);
    expect(selectKinds(['pglite', 'postgres'], 'pglite')).toEqual(['pglite']);
    expect(selectKinds(['pglite', 'postgres'], ' postgres , pglite ')).toEqual(['pglite', 'postgres']);
  });

  it('refuses a name it does not know, and a list that leaves nothing to run', () => {
    expect(() => selectKinds(['pglite', 'postgres'], 'postgresql')).toThrow(/"postgresql" is neither/);
    expect(() => selectKinds(['pglite'], 'postgres')).toThrow(/keeps none of pglite/);
  });
});
