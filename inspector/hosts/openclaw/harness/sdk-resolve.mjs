// ES module resolve hook: "openclaw/plugin-sdk/..." that does not resolve goes to plugin-sdk.cjs.
const SDK = "openclaw/plugin-sdk";
const SHIM = new URL("./plugin-sdk.cjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (specifier === SDK || specifier.startsWith(`${SDK}/`)) return { url: SHIM, shortCircuit: true };
    throw error;
  }
}
