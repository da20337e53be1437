// Shared by both pages (index.html, protocol.html).
function withSeed(body, typed) {
  // the new-game request's JSON text with the seed as typed: seeds go up to 2**64 - 1, and
  // Number() would round one past 2**53 to another seed (another game)
  const seed = typed.trim();
  if (/^[0-9]+$/.test(seed)) return JSON.stringify(body).slice(0, -1) + ',"seed":' + seed.replace(/^0+(?=[0-9])/, "") + "}";
  // anything else as typed, a string the server names (Number() rounded 12345678901234567891e0 to
  // another seed, and made "abc" or 1e400 null, a random seed); none typed: a random seed
  return JSON.stringify(seed === "" ? body : {...body, seed});
}
