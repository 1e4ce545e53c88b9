/** The base of every error the API turns into a response: an HTTP status and a code. */
export class AppError extends Error {
  constructor(message, { status = 500, code = 'internal', field } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    if (field !== undefined) this.field = field;
  }
}

export class ValidationError extends AppError {
  constructor(message, field) {
    super(message, { status: 400, code: 'invalid', field });
  }
}

export class NotFoundError extends AppError {
  constructor(kind, id) {
    super(`${kind} ${id} not found`, { status: 404, code: 'not-found' });
    this.kind = kind;
  }
}

export class ConflictError extends AppError {
  constructor(message, code = 'conflict') {
    super(message, { status: 409, code });
  }
}

export class CouponError extends AppError {
  constructor(message, code) {
    super(message, { status: 422, code: `coupon-${code}` });
  }
}

export class PaymentError extends AppError {
  constructor(message, code = 'payment-failed') {
    super(message, { status: 402, code });
  }
}
