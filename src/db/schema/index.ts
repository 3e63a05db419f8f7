// The one schema declaration (db/schema/): the core tables, and those of reports that go somewhere by
// themselves. Everything that reads the schema (the copy, the row types, the checks) imports this file.
export * from "./core";
export * from "./delivery";
