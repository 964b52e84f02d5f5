// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * dist-data/<service>/checksums.json: the sha256 of every file of the build, by path. The server verifies what it loads against it and uses the hash as the strong ETag.
 */
export interface BuildChecksums {
  files: {
    [k: string]: string | undefined;
  };
}
