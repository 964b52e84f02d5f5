// Spine ids (docs/contracts/facilities.md): `ONF-` and six digits, issued by the build (pipeline/facilities/ids.ts).
export const toSpineId = (n: number) => `ONF-${String(n).padStart(6, '0')}`;
export const isSpineId = (s: string) => /^ONF-\d{6}$/.test(s);
