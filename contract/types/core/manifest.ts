// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * dist-data/<service>/manifest.json: what a build was made from and when. The only file of a build that holds a clock time.
 */
export interface BuildManifest {
  /**
   * The build data format: what the tree holds and how its files are laid out. A server loads only builds of its own format; another asks for a rebuild with the server's version.
   */
  format: 2;
  service: "facilities" | "carriers" | "economy";
  /**
   * Hash of the input files, the build options and the build code (for facilities also of the ids.json carried over from the previous build): two builds with the same version have the same files, the manifest's built_at aside.
   */
  data_version: string;
  built_at: string;
  /**
   * True when the inputs are the project's generated demo data, not a real upstream download.
   */
  demo: boolean;
  /**
   * Build options that change the output (for facilities: the comparison year).
   */
  options?: {
    [k: string]: unknown | undefined;
  };
  /**
   * What the build read, each with its licence and the attribution that licence asks for (docs/contracts/common.md, "Provenance and licences").
   */
  sources: {
    /**
     * Path relative to the build's input folder.
     */
    file?: string;
    kind: string;
    /**
     * Data rows read (including rows later reported as dropped); for an upstream, the series read from it.
     */
    rows: number;
    bytes?: number;
    sha256?: string;
    encoding?: string;
    /**
     * Where the upstream publishes this file.
     */
    url: string;
    /**
     * A service the server reads at request time (economy's observations), not a file the build read: it has no file, bytes or sha256.
     */
    upstream?: true;
    /**
     * The dataset or service, as its publisher names it.
     */
    title: string;
    publisher: string;
    licence: {
      name: string;
      url: string;
    };
    /**
     * The statement the publisher's licence asks users to show, in the licence's own wording (a demo build's sources say they are generated, then give it).
     */
    attribution: string;
  }[];
  counts: {
    [k: string]: number | undefined;
  };
  /**
   * Files in the build, listed in checksums.json.
   */
  files: number;
  checksums_sha256: string;
  /**
   * Only for a build with signed-in data (carriers profiles): sha256 of the checksums.json of its private files, which are never in this tree but in <service>.private/<first 16 hex digits of this hash>/ beside it, so the tree can be uploaded to a CDN as it is.
   */
  private_checksums_sha256?: string;
}
