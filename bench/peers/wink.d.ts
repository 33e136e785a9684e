// The two wink packages ship no types; these cover what the BM25 peer calls.
declare module "wink-bm25-text-search" {
  type PrepTask = (input: never) => unknown;
  interface Bm25Engine {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
      ovFldNames?: string[];
    }): boolean;
    definePrepTasks(tasks: PrepTask[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string): number;
    consolidate(precision?: number): boolean;
    /** [id, score] pairs, best first. */
    search(text: string, limit?: number): Array<[string, number]>;
  }
  const bm25: () => Bm25Engine;
  export default bm25;
}

declare module "wink-nlp-utils" {
  const nlp: {
    string: { lowerCase(text: string): string; tokenize0(text: string): string[] };
    tokens: { removeWords(tokens: string[]): string[]; stem(tokens: string[]): string[] };
  };
  export default nlp;
}
