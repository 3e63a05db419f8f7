// Official EN 16931 example invoices (../shared/einvoice/examples/), re-expressed in reportgen's JSON
// model (src/einvoice/model.ts), with the key figures of each original to compare with what we compute.
// Where an original is inconsistent in itself, the model says what the original means (noted below).
import type { EInvoiceModel } from "../../src/einvoice";

export interface EInvoiceExample {
  file: string;
  invoice: EInvoiceModel;
  /** From the original's SpecifiedTradeSettlementHeaderMonetarySummation and ApplicableTradeTax. */
  expected: {
    line_total: string;
    allowance_total?: string;
    charge_total?: string;
    tax_basis_total: string;
    tax_total: string;
    grand_total: string;
    prepaid?: string;
    due_payable: string;
    vat: { category: string; rate: string; taxable: string; tax: string }[];
  };
}

const s = (rate: string) => ({ category: "S" as const, rate });

/** CII_example1.xml: a Dutch wholesale invoice, 20 lines at 6 % and 21 %, one of them a return. */
const example1Lines: [string, string, string, string, string][] = [
  // name, seller item id, quantity, net price, VAT rate
  ["PATAT FRITES 10MM 10KG", "166022", "2", "9.95", "6"],
  ["KAAS 50PL. JONG BEL. 1KG", "661813", "1", "9.85", "6"],
  ["POT KETCHUP 3 LT", "438146", "1", "8.29", "6"],
  ["FRITESSAUS 3 LRR", "438103", "2", "7.23", "6"],
  ["KOFFIE BLIK 3,5KG SNELF", "666955", "1", "35", "6"],
  ["KOFFIE 3.5 KG BLIK STAND", "664871", "1", "35", "6"],
  ["SUIKERKLONT", "350257", "1", "10.65", "6"],
  ["1 KG UL BLOKJES", "350258", "1", "1.55", "6"],
  ["BLOCKNOTE A5", "999998", "3", "4.79", "6"],
  ["CHIPS NAT KLEIN ZAKJES", "740810", "1", "8.29", "6"],
  ["CHIPS PAP KLEINE ZAKJES", "740829", "2", "8.29", "6"],
  ["TR KL PAKJES APPELSAP", "740828", "1", "9.95", "6"],
  ["PK CHOCOLADEMELK", "740827", "2", "1.65", "6"],
  ["KRAT BIER", "999996", "1", "10.8", "21"],
  ["STATIEGELD", "999995", "1", "3.9", "6"],
  ["BLEEK 3 X 750 ML", "102172", "2", "3.8", "21"],
  ["WC PAPIER", "999994", "2", "4.67", "21"],
  ["BALPENNEN 50 ST BLAUW", "999993", "1", "18.63", "21"],
  ["EM FRITUURVET", "999992", "6", "17.02", "6"],
  // The original bills quantity 6 with a line total of -109.98: a return, i.e. quantity -6.
  ["FRITUUR VET 10 KG RETOUR", "175137", "-6", "18.33", "6"],
];

export const example1: EInvoiceExample = {
  file: "CII_example1.xml",
  invoice: {
    number: "12115118",
    issue_date: "2015-01-09",
    currency: "EUR",
    notes: [
      {
        text: "Alle leveringen zijn franco. Alle prijzen zijn incl. BTW. Betalingstermijn: 14 dagen netto. Prijswijzigingen voorbehouden.",
        subject_code: "AAR",
      },
    ],
    seller: {
      name: "De Koksmaat",
      legal_registration_id: "57151520",
      vat_id: "NL8200.98.395.B.01",
      address: { line1: "Postbus 7l", city: "Velsen-Noord", postal_code: "1950 AB", country_code: "NL" },
    },
    buyer: {
      name: "ODIN 59",
      contact: { name: "Dhr. J BLOKKER" },
      address: { line1: "POSTBUS 367", city: "HEEMSKERK", postal_code: "1960 AJ", country_code: "NL" },
    },
    due_date: "2015-01-09",
    payment: { means_code: "30", iban: "NL57 RABO 0107307510", reference: "Deb. 10202 / Fact. 12115118" },
    lines: example1Lines.map(([name, id, quantity, price, rate]) => ({
      name,
      seller_item_id: id,
      quantity,
      unit_code: "H87",
      net_price: price,
      vat: s(rate),
    })),
    totals: { grand_total: "250.33", due_payable: "250.33" },
  },
  expected: {
    line_total: "229.60",
    tax_basis_total: "229.60",
    tax_total: "20.73",
    grand_total: "250.33",
    due_payable: "250.33",
    vat: [
      { category: "S", rate: "6", taxable: "183.23", tax: "10.99" },
      { category: "S", rate: "21", taxable: "46.37", tax: "9.74" },
    ],
  },
};

/** CII_example2.xml (= CII_business_example_01.xml): Norwegian IT equipment; S 25 %, S 15 %, E; returns; allowances and charges. */
export const example2: EInvoiceExample = {
  file: "CII_example2.xml",
  invoice: {
    number: "TOSL108",
    issue_date: "2013-06-30",
    currency: "NOK",
    notes: [{ text: "Ordered in our booth at the convention" }],
    order_reference: "123",
    contract_reference: "Contract321",
    seller: {
      name: "Salescompany ltd.",
      legal_registration_id: "123456789",
      vat_id: "NO123456789MVA",
      contact: { name: "Antonio Salesmacher", phone: "46211230", email: "antonio@salescompany.no" },
      address: {
        line1: "Main street 34",
        line2: "Suite 123",
        city: "Big city",
        postal_code: "303",
        country_code: "NO",
        country_subdivision: "RegionA",
      },
    },
    buyer: {
      name: "The Buyercompany",
      legal_registration_id: "987654321",
      vat_id: "NO987654321MVA",
      contact: { name: "John Doe", phone: "5121230", email: "john@buyercompany.no" },
      address: {
        line1: "Anystreet 8",
        line2: "Back door",
        city: "Anytown",
        postal_code: "101",
        country_code: "NO",
        country_subdivision: "RegionB",
      },
    },
    delivery: {
      date: "2013-06-15",
      ship_to_address: {
        line1: "Deliverystreet 2",
        line2: "Side door",
        city: "DeliveryCity",
        postal_code: "523427",
        country_code: "NO",
        country_subdivision: "RegionD",
      },
    },
    billing_period: { start: "2013-06-01", end: "2013-06-30" },
    payment: { means_code: "30", iban: "NO9386011117947", bic: "DNBANOKK", reference: "0003434323213231" },
    payment_terms: "2 % discount if paid within 2 days\nPenalty percentage 10% from due date",
    due_date: "2013-07-20",
    lines: [
      {
        note: "Scratch on box",
        name: "Laptop computer",
        description: "Processor: Intel Core 2 Duo SU9400 LV (1.4GHz). RAM: 3MB. Screen 1440x900",
        seller_item_id: "JB007",
        quantity: "1",
        unit_code: "NAR",
        gross_price: "1498",
        price_discount: "225",
        net_price: "1273",
        vat: s("25"),
        period: { start: "2013-06-01", end: "2013-06-01" },
        allowances: [{ amount: "12", reason: "Damage" }],
        charges: [{ amount: "12", reason: "Testing" }],
        order_line_reference: "1",
        accounting_reference: "BookingCode001",
      },
      {
        note: "Cover is slightly damaged.",
        name: 'Returned "Advanced computing" book',
        seller_item_id: "JB008",
        quantity: "-1",
        unit_code: "NAR",
        net_price: "3.96",
        vat: s("15"),
        order_line_reference: "5",
        accounting_reference: "BookingCode002",
      },
      {
        name: '"Computing for dummies" book',
        seller_item_id: "JB009",
        quantity: "2",
        unit_code: "NAR",
        // The original's net price 2.48 is the gross price 2.75 less 10 %, rounded.
        gross_price: "2.75",
        price_discount: "0.275",
        net_price: "2.48",
        vat: s("15"),
        order_line_reference: "3",
        accounting_reference: "BookingCode003",
      },
      {
        name: "Returned IBM 5150 desktop",
        seller_item_id: "JB010",
        quantity: "-1",
        unit_code: "NAR",
        net_price: "25",
        vat: { category: "E", rate: "0" },
        order_line_reference: "2",
        accounting_reference: "BookingCode004",
      },
      {
        name: "Network cable",
        seller_item_id: "JB011",
        quantity: "250",
        unit_code: "MTR",
        net_price: "0.75",
        vat: s("25"),
        order_line_reference: "4",
        accounting_reference: "BookingCode005",
      },
    ],
    allowances: [{ amount: "100", reason: "Promotion discount", reason_code: "95", vat: s("25") }],
    charges: [{ amount: "100", reason: "Freight", vat: s("25") }],
    vat_breakdown: [
      { category: "S", rate: "25", taxable_amount: "1460.5", tax_amount: "365.13" },
      { category: "S", rate: "15", taxable_amount: "1", tax_amount: "0.15" },
      { category: "E", rate: "0", taxable_amount: "-25", tax_amount: "0", exemption_reason: "Exempt New Means of Transport" },
    ],
    totals: {
      line_total: "1436.5",
      charge_total: "100",
      allowance_total: "100",
      tax_basis_total: "1436.5",
      tax_total: "365.28",
      grand_total: "1801.78",
      prepaid: "1000",
      due_payable: "801.78",
    },
  },
  expected: {
    line_total: "1436.50",
    allowance_total: "100.00",
    charge_total: "100.00",
    tax_basis_total: "1436.50",
    tax_total: "365.28",
    grand_total: "1801.78",
    prepaid: "1000.00",
    due_payable: "801.78",
    vat: [
      { category: "S", rate: "25", taxable: "1460.50", tax: "365.13" },
      { category: "S", rate: "15", taxable: "1.00", tax: "0.15" },
      { category: "E", rate: "0", taxable: "-25.00", tax: "0.00" },
    ],
  },
};

/** CII_example5.xml: "maximum content"; S 25 % and 12 %, percentage allowances and charges on a line and the document, half prepaid. */
export const example5: EInvoiceExample = {
  file: "CII_example5.xml",
  invoice: {
    number: "TOSL110",
    issue_date: "2013-04-10",
    currency: "DKK",
    notes: [{ text: "Ordered through our website", subject_code: "AAI" }],
    buyer_reference: "qwerty",
    order_reference: "PO4711",
    sales_order_reference: "123",
    contract_reference: "2013-05",
    project_reference: "Project345",
    preceding_invoice: { number: "TOSL109", issue_date: "2013-03-10" },
    seller: {
      name: "SellerCompany",
      trading_name: "SelCo",
      legal_registration_id: "NL16356706",
      vat_id: "NL16356706",
      tax_registration_id: "NL16356706",
      electronic_address: { scheme: "EM", value: "info@selco.nl" },
      contact: { name: "Anthon Larsen", phone: "+3198989898", email: "Anthon@Selco.nl" },
      address: {
        line1: "Hoofdstraat 4",
        line2: "Om de hoek",
        city: "Grootstad",
        postal_code: "54321",
        country_code: "NL",
        country_subdivision: "Overijssel",
      },
    },
    buyer: {
      name: "Buyercompany ltd",
      trading_name: "Buyco",
      legal_registration_id: "DK16356607",
      vat_id: "DK16356607",
      electronic_address: { scheme: "EM", value: "info@buyercompany.dk" },
      contact: { name: "John Hansen", phone: "+4598989898", email: "john.hansen@buyercompany.dk" },
      address: {
        line1: "Anystreet, Building 1",
        line2: "5th floor",
        city: "Anytown",
        postal_code: "101",
        country_code: "DK",
        country_subdivision: "Jutland",
      },
    },
    delivery: {
      date: "2013-04-15",
      ship_to_name: "Logistic service Ltd",
      ship_to_address: {
        line1: "Deliverystreet",
        line2: "Gate 15",
        city: "Deliverycity",
        postal_code: "9000",
        country_code: "DK",
        country_subdivision: "Jutland",
      },
    },
    billing_period: { start: "2013-03-10", end: "2013-04-10" },
    payment: { means_code: "58", means_text: "Half prepaid", iban: "DK1212341234123412", reference: "Payref1" },
    payment_terms: "50% prepaid, 50% within one month",
    due_date: "2013-05-10",
    lines: [
      {
        id: "1",
        note: "first line",
        name: "Printing paper",
        description: "Printing paper, 2mm",
        seller_item_id: "JB007",
        buyer_item_id: "BUY123",
        quantity: "1000",
        unit_code: "C62",
        gross_price: "1.1",
        price_discount: "0.1",
        net_price: "1",
        vat: s("25"),
        period: { start: "2013-03-10", end: "2013-04-10" },
        allowances: [{ amount: "100", base_amount: "1000", percent: "10", reason: "Loyal customer", reason_code: "95" }],
        charges: [{ amount: "100", base_amount: "1000", percent: "10", reason: "Packaging", reason_code: "ABL" }],
        order_line_reference: "1",
        accounting_reference: "ACC7654",
      },
      {
        id: "2",
        note: "Second line",
        name: "Parker Pen",
        description: "Parker Pen, Black, model Sansa",
        seller_item_id: "JB008",
        quantity: "100",
        unit_code: "C62",
        net_price: "5",
        vat: s("25"),
        order_line_reference: "2",
        accounting_reference: "ACC7654",
      },
      { id: "3", name: "American Cookies", seller_item_id: "JB009", quantity: "500", unit_code: "C62", net_price: "5", vat: s("12") },
    ],
    allowances: [{ amount: "150", base_amount: "1500", percent: "10", reason: "Loyal customer", reason_code: "95", vat: s("25") }],
    charges: [{ amount: "150", base_amount: "1500", percent: "10", reason: "Packaging", reason_code: "ABL", vat: s("25") }],
    totals: { prepaid: "2337.5", grand_total: "4675", due_payable: "2337.5" },
  },
  expected: {
    line_total: "4000.00",
    allowance_total: "150.00",
    charge_total: "150.00",
    tax_basis_total: "4000.00",
    tax_total: "675.00",
    grand_total: "4675.00",
    prepaid: "2337.50",
    due_payable: "2337.50",
    vat: [
      { category: "S", rate: "25", taxable: "1500.00", tax: "375.00" },
      { category: "S", rate: "12", taxable: "2500.00", tax: "300.00" },
    ],
  },
};

export const examples = [example1, example2, example5];
