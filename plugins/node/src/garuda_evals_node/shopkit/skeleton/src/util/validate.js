import { ValidationError } from './errors.js';

/** A non-blank string of at most `max` characters, trimmed. */
export function requireString(value, field, { max = 200 } = {}) {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ValidationError(`${field} is required`, field);
  }
  const text = value.trim();
  if (text.length > max) throw new ValidationError(`${field} is longer than ${max}`, field);
  return text;
}

/** Like requireString, but undefined and null give null. */
export function optionalString(value, field, options) {
  return value === undefined || value === null ? null : requireString(value, field, options);
}

/** An integer between `min` and `max`. */
export function requireInt(value, field, { min = -Infinity, max = Infinity } = {}) {
  if (!Number.isInteger(value)) throw new ValidationError(`${field} must be an integer`, field);
  if (value < min || value > max) {
    throw new ValidationError(`${field} must be between ${min} and ${max}`, field);
  }
  return value;
}

export function requirePositiveInt(value, field) {
  return requireInt(value, field, { min: 1 });
}

/** An amount in cents: a non-negative integer. */
export function requireCents(value, field) {
  return requireInt(value, field, { min: 0 });
}

export function requireEmail(value, field = 'email') {
  const text = requireString(value, field, { max: 254 }).toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(text)) {
    throw new ValidationError(`${field} is not an email address`, field);
  }
  return text;
}

export function requireOneOf(value, field, allowed) {
  if (!allowed.includes(value)) {
    throw new ValidationError(`${field} must be one of ${allowed.join(', ')}`, field);
  }
  return value;
}

export function requireBoolean(value, field) {
  if (typeof value !== 'boolean') throw new ValidationError(`${field} must be true or false`, field);
  return value;
}

/** An ISO 8601 timestamp, returned in the canonical toISOString form. */
export function requireIsoDate(value, field) {
  const date = typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw new ValidationError(`${field} must be an ISO date`, field);
  }
  return date.toISOString();
}

/** A list whose items pass `check`; an empty list is an error unless `allowEmpty`. */
export function requireList(value, field, check, { allowEmpty = false } = {}) {
  if (!Array.isArray(value)) throw new ValidationError(`${field} must be a list`, field);
  if (!allowEmpty && value.length === 0) throw new ValidationError(`${field} is empty`, field);
  return value.map((item, i) => check(item, `${field}[${i}]`));
}
