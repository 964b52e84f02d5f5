// Generated from schemas/ by `npm run types`: edit the schema, not this file.
export interface Health {
  status: "ok";
  service: string;
  data_version: string;
  demo: boolean;
}
