// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * The one error body of every service, served as application/problem+json.
 */
export interface ProblemDetailsRFC9457 {
  /**
   * Relative URI, stable; GET it for a short explanation.
   */
  type: string;
  title: string;
  status: number;
  detail: string;
  code:
    | "invalid_parameter"
    | "not_found"
    | "history_expired"
    | "unauthorized"
    | "premium_required"
    | "quota_exhausted"
    | "sign_in_limited"
    | "upstream_unavailable"
    | "store_unavailable"
    | "method_not_allowed"
    | "payload_too_large"
    | "unsupported_media_type"
    | "bad_request"
    | "headers_too_large"
    | "uri_too_long"
    | "request_timeout"
    | "expectation_failed"
    | "internal";
  /**
   * Every bad parameter at once (400 only).
   */
  errors?: {
    parameter: string;
    message: string;
  }[];
}
