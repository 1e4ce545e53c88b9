import { TAX_RATES } from '../config/settings.js';
import { ValidationError } from '../util/errors.js';
import { percentOf } from '../util/money.js';

/** Sales tax by region, on amounts in cents. */
export class TaxService {
  constructor(rates = TAX_RATES) {
    this.rates = rates;
  }

  rateFor(region) {
    if (!Object.hasOwn(this.rates, region)) {
      throw new ValidationError(`no tax rate for region ${region}`, 'region');
    }
    return this.rates[region];
  }

  /** The tax on `cents` in `region`, rounded to the cent. */
  taxFor(cents, region) {
    return percentOf(cents, this.rateFor(region));
  }
}
