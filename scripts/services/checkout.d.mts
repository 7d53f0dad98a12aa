/** Types of scripts/services/checkout.mjs for the tests that import it. */
export function derivedCheckoutName(root: string): string;
export function checkoutName(root: string): string;
export function checkoutEnv(
  root: string,
  services: Record<string, string>,
  given?: Record<string, string | undefined>,
): { name: string; env: Record<string, string> };
