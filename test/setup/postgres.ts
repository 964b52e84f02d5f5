// Placeholder replaced below.
export function setup() {}
