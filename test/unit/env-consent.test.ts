import { describe, expect, it } from 'vitest';
import { envConsent, packageConsent } from '../../src/env/index.js';
import { UsageError } from '../../src/errors.js';

describe('--configure-env: whether cudawiz may change the environment', () => {
  it('follows the flag when one is given, whatever else is said', () => {
    expect(envConsent({ flag: 'yes', tty: false })).toBe('yes');
    expect(envConsent({ flag: 'no', yes: true, tty: true })).toBe('no');
    expect(envConsent({ flag: 'YES', tty: false })).toBe('yes');
  });

  it('asks in the wizard, says no headless, and yes headless with --yes', () => {
    expect(envConsent({ tty: true })).toBe('ask');
    expect(envConsent({ tty: false })).toBe('no');
    expect(envConsent({ yes: true, tty: false })).toBe('yes');
  });

  it('refuses anything but yes or no as a usage error that names the choices', () => {
    let error: unknown;
    try {
      envConsent({ flag: 'maybe', tty: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('--configure-env takes yes or no, not "maybe".');
    expect((error as UsageError).exitCode).toBe(2);
  });
});

describe('--package-manager: whether repair may run conda, pip or apt on what they own', () => {
  it('follows the flag; without it asks where a question can be asked and says no headless — --yes is no consent here', () => {
    expect(packageConsent({ flag: 'yes', tty: false })).toBe('yes');
    expect(packageConsent({ flag: 'No', tty: true })).toBe('no');
    expect(packageConsent({ tty: true })).toBe('ask');
    expect(packageConsent({ tty: false })).toBe('no');
    expect(() => packageConsent({ flag: 'maybe', tty: false })).toThrow('--package-manager takes yes or no, not "maybe".');
  });
});
