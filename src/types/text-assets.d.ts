// Files bundled as text (`import x from "./file" with { type: "text" }`).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*.ejs" {
  const text: string;
  export default text;
}
