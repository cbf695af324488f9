/**
 * The password rule of 001 §5 in words, shown under every new-password field (setting or
 * resetting a password, creating a DealerPass ID). One text, so the forms never disagree.
 */
export const PASSWORD_RULE_HINT =
  'At least 8 characters and no spaces, with a lower-case letter, an upper-case letter, a number and a special character.';
