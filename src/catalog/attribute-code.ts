/**
 * The one rule for an attribute code (how SetValue, bulk upserts, the product list's attribute
 * columns and exports name an attribute): a letter, then letters, digits, `_`, `.` or `-`, at
 * most 64 characters. AddAttribute and UpdateAttribute enforce it; GetProducts' `attributes=`
 * parameter checks each code against it.
 */
export const ATTRIBUTE_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export const ATTRIBUTE_CODE_RULE = 'must start with a letter and use letters, digits, _ . - (max 64)';
