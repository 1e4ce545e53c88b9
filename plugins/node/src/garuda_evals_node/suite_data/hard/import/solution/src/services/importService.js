import { parseCsv } from '../util/csv.js';
import { AppError, ValidationError } from '../util/errors.js';
import { toCents } from '../util/money.js';

export const IMPORT_HEADER = Object.freeze(['sku', 'name', 'price', 'category', 'stock']);

/**
 * Bulk product import from CSV. Each valid row becomes a product with its stock; a bad row
 * creates nothing and is reported with its line (the header is line 1).
 */
export class ImportService {
  constructor({ products, categories, inventory }) {
    this.products = products;
    this.categories = categories;
    this.inventory = inventory;
  }

  importProducts(csv) {
    let rows;
    try {
      rows = parseCsv(csv);
    } catch (error) {
      throw new ValidationError(`the CSV cannot be read: ${error.message}`, 'csv');
    }
    const [header, ...data] = rows;
    if (!header || header.join(',') !== IMPORT_HEADER.join(',')) {
      throw new ValidationError(`the header must be ${IMPORT_HEADER.join(',')}`, 'csv');
    }
    const created = [];
    const errors = [];
    data.forEach((row, index) => {
      try {
        created.push(this.#importRow(row).sku);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        errors.push({ line: index + 2, message: error.message });
      }
    });
    return { created, errors };
  }

  #importRow(row) {
    if (row.length !== IMPORT_HEADER.length) {
      throw new ValidationError(`expected ${IMPORT_HEADER.length} fields, got ${row.length}`, 'csv');
    }
    const [sku, name, price, slug, stockText] = row;
    const category = this.categories.findBySlug(slug.trim());
    if (!category) throw new ValidationError(`unknown category ${slug}`, 'category');
    const stock = Number(stockText);
    if (stockText.trim() === '' || !Number.isInteger(stock) || stock < 0) {
      throw new ValidationError(`stock must be a whole number of units, got ${stockText}`, 'stock');
    }
    const product = this.products.create({ sku, name, priceCents: toCents(price), categoryId: category.id });
    if (stock > 0) this.inventory.restock(product.id, stock);
    return product;
  }
}
