// Files bundled into the executable as files (`import path from "./file" with { type: "file" }`): the
// import is the file's path, under /$bunfs/ in a compiled executable; read it with Bun.file(path).
declare module "*.icc" {
  const path: string;
  export default path;
}
declare module "*.ttf" {
  const path: string;
  export default path;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
