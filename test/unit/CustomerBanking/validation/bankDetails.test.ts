/**
 * Bank details as banks check them (validation/bankDetails.ts): IBAN (ISO 13616: the registry length
 * of its country, mod-97 check digits), BIC (ISO 9362 structure) and UK sort code, each typed the way
 * people copy them (spaces, lower case, dashes) and normalised to what the bank is sent.
 */
import {
	checkBic,
	checkSortCode,
	ibanCheck,
	IBAN_LENGTHS,
} from '../../../../nodes/CustomerBanking/validation/bankDetails';

const checkIban = ibanCheck({ min: 15, max: 34 });

/** ISO 7064 mod 97-10 done the long way, independently of the module: letters A=10 … Z=35. */
function mod97(iban: string): bigint {
	const moved = iban.slice(4) + iban.slice(0, 4);
	const digits = [...moved].map((char) => parseInt(char, 36).toString()).join('');
	return BigInt(digits) % 97n;
}

/** Typed as on an invoice: groups of four, lower case. */
const printed = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

// example IBANs of the SWIFT IBAN registry, one or more per country
const VALID_IBANS = [
	'AD1200012030200359100100',
	'AE070331234567890123456',
	'AL47212110090000000235698741',
	'AT611904300234573201',
	'AZ21NABZ00000000137010001944',
	'BA391290079401028494',
	'BE68539007547034',
	'BG80BNBG96611020345678',
	'BH67BMAG00001299123456',
	'BI4210000100010000332045181',
	'BR1800360305000010009795493C1',
	'BY13NBRB3600900000002Z00AB00',
	'CH9300762011623852957',
	'CR05015202001026284066',
	'CY17002001280000001200527600',
	'CZ6508000000192000145399',
	'DE89370400440532013000',
	'DJ2100010000000154000100186',
	'DK5000400440116243',
	'DO28BAGR00000001212453611324',
	'EE382200221020145685',
	'EG380019000500000000263180002',
	'ES9121000418450200051332',
	'FI2112345600000785',
	'FK88SC123456789012',
	'FO6264600001631634',
	'FR1420041010050500013M02606',
	'GB29NWBK60161331926819',
	'GB82WEST12345698765432',
	'GE29NB0000000101904917',
	'GI75NWBK000000007099453',
	'GL8964710001000206',
	'GR1601101250000000012300695',
	'GT82TRAJ01020000001210029690',
	'HN88CABF00000000000250005469',
	'HR1210010051863000160',
	'HU42117730161111101800000000',
	'IE29AIBK93115212345678',
	'IL620108000000099999999',
	'IQ98NBIQ850123456789012',
	'IS140159260076545510730339',
	'IT60X0542811101000000123456',
	'JO94CBJO0010000000000131000302',
	'KW81CBKU0000000000001234560101',
	'KZ86125KZT5004100100',
	'LB62099900000001001901229114',
	'LC55HEMM000100010012001200023015',
	'LI21088100002324013AA',
	'LT121000011101001000',
	'LU280019400644750000',
	'LV80BANK0000435195001',
	'LY83002048000020100120361',
	'MC5811222000010123456789030',
	'MD24AG000225100013104168',
	'ME25505000012345678951',
	'MK07250120000058984',
	'MN121234123456789123',
	'MR1300020001010000123456753',
	'MT84MALT011000012345MTLCAST001S',
	'MU17BOMM0101101030300200000MUR',
	'NI45BAPR00000013000003558124',
	'NL91ABNA0417164300',
	'NO9386011117947',
	'OM810180000001299123456',
	'PK36SCBL0000001123456702',
	'PL61109010140000071219812874',
	'PS92PALS000000000400123456702',
	'PT50000201231234567890154',
	'QA58DOHB00001234567890ABCDEFG',
	'RO49AAAA1B31007593840000',
	'RS35260005601001611379',
	'RU0304452522540817810538091310419',
	'SA0380000000608010167519',
	'SC18SSCB11010000000000001497USD',
	'SD2129010501234001',
	'SE4550000000058398257466',
	'SI56263300012039086',
	'SK3112000000198742637541',
	'SM86U0322509800000000270100',
	'SO211000001001000100141',
	'ST68000100010051845310112',
	'SV62CENR00000000000000700025',
	'TL380080012345678910157',
	'TN5910006035183598478831',
	'TR330006100519786457841326',
	'UA213223130000026007233566001',
	'VA59001123000012345678',
	'VG96VPVG0000012345678901',
	'XK051212012345678906',
	'YE15CBYE0001018861234567891234',
];

describe('IBAN: valid examples of the registry, as typed and as sent', () => {
	it('covers at least 20 countries, each example right by an independent mod-97', () => {
		expect(new Set(VALID_IBANS.map((iban) => iban.slice(0, 2))).size).toBeGreaterThanOrEqual(20);
		for (const iban of VALID_IBANS) expect([iban, mod97(iban)]).toEqual([iban, 1n]);
	});

	it('has a registry length for every country of the examples, and each example has it', () => {
		for (const iban of VALID_IBANS) {
			expect([iban, IBAN_LENGTHS[iban.slice(0, 2)]?.length]).toEqual([iban, iban.length]);
		}
	});

	it('every registry length is within the 15-34 characters every IBAN has', () => {
		for (const [country, { length }] of Object.entries(IBAN_LENGTHS)) {
			expect([country, length >= 15 && length <= 34]).toEqual([country, true]);
		}
	});

	it.each(VALID_IBANS)('%s: accepted as sent, printed in groups and in lower case', (iban) => {
		for (const typed of [
			iban,
			printed(iban),
			printed(iban).toLowerCase(),
			iban.toLowerCase(),
			` ${printed(iban)}\t`,
		]) {
			expect([typed, checkIban(typed)]).toEqual([typed, { ok: true, value: iban }]);
		}
	});

	it('non-breaking spaces, narrow non-breaking spaces and tabs are spaces too', () => {
		expect(checkIban('DE89\u00A03704\u202F0044\t0532 0130\u00A000')).toEqual({
			ok: true,
			value: 'DE89370400440532013000',
		});
	});

	it('a country the table does not list: the 15-34 characters and the check digits', () => {
		// "ZZ" is no country: its check digits are made to be right, so only the rules left apply
		const unlisted = (bban: string) => {
			const check = 98n - mod97(`ZZ00${bban}`);
			return `ZZ${check.toString().padStart(2, '0')}${bban}`;
		};
		expect(IBAN_LENGTHS.ZZ).toBeUndefined();
		for (const bban of ['A'.repeat(11), '1'.repeat(30)]) {
			const iban = unlisted(bban);
			expect(mod97(iban)).toBe(1n);
			expect(checkIban(iban)).toEqual({ ok: true, value: iban });
		}
		const short = unlisted('A'.repeat(10));
		expect(checkIban(short)).toEqual({
			ok: false,
			message: `"${short}": an IBAN has 15-34 characters, this one has 14`,
		});
		const long = unlisted('1'.repeat(31));
		expect(checkIban(long)).toEqual({
			ok: false,
			message: `"${long}": an IBAN has 15-34 characters, this one has 35`,
		});
		expect(checkIban('ZZ00AAAAAAAAAAA')).toEqual({
			ok: false,
			message:
				'"ZZ00AAAAAAAAAAA": the check digits are wrong (ISO 13616 mod-97); check for a typing mistake',
		});
	});
});

describe('IBAN: refused, naming what was typed and the rule', () => {
	const wrongCheckDigits = (typed: string) =>
		`"${typed}": the check digits are wrong (ISO 13616 mod-97); check for a typing mistake`;

	it.each([
		['DE00 3704 0044 0532 0130 00', wrongCheckDigits('DE00 3704 0044 0532 0130 00')],
		['DE00370400440532013000', wrongCheckDigits('DE00370400440532013000')],
		// one digit mistyped, two digits swapped
		['DE89370400440532013001', wrongCheckDigits('DE89370400440532013001')],
		['DE89370400440523013000', wrongCheckDigits('DE89370400440523013000')],
		['GB82 WEST 1234 5698 7654 23', wrongCheckDigits('GB82 WEST 1234 5698 7654 23')],
		['fr1420041010050500013m02607', wrongCheckDigits('fr1420041010050500013m02607')],
	])('%j: wrong check digits', (typed, message) => {
		expect(mod97(typed.replace(/\s/g, '').toUpperCase())).not.toBe(1n);
		expect(checkIban(typed)).toEqual({ ok: false, message });
	});

	it('check digits 00, 01 and 99 are never issued, even where mod-97 alone would pass', () => {
		// 97 and 00 (98 and 01, 02 and 99) leave the same remainder: only the first of each is issued
		const TWIN: Record<string, string> = { '97': '00', '98': '01', '02': '99' };
		const twinOf = (iban: string) => `${iban.slice(0, 2)}${TWIN[iban.slice(2, 4)]}${iban.slice(4)}`;
		const base = VALID_IBANS.find((iban) => ['97', '98', '02'].includes(iban.slice(2, 4)));
		const crafted = ['ZZ', 'QQ'].flatMap((country) =>
			['97', '98', '02'].map((check) => {
				for (let n = 0; ; n++) {
					const candidate = `${country}${check}${String(n).padStart(11, '0')}`;
					if (mod97(candidate) === 1n) return candidate;
				}
			}),
		);
		for (const valid of [...crafted, ...(base ? [base] : [])]) {
			expect(checkIban(valid).ok).toBe(true);
			const twin = twinOf(valid);
			expect(mod97(twin)).toBe(1n);
			expect(checkIban(twin)).toEqual({ ok: false, message: wrongCheckDigits(twin) });
		}
	});

	it.each([
		['DE8937040044053201300', 'an IBAN from Germany (DE) has 22 characters, this one has 21'],
		['DE893704004405320130000', 'an IBAN from Germany (DE) has 22 characters, this one has 23'],
		[
			'DE89 3704 0044 0532 0130 0',
			'an IBAN from Germany (DE) has 22 characters, this one has 21 without spaces',
		],
		[
			'GB29NWBK6016133192681',
			'an IBAN from the United Kingdom (GB) has 22 characters, this one has 21',
		],
		['NO938601111794', 'an IBAN from Norway (NO) has 15 characters, this one has 14'],
		// a valid Dutch IBAN with a German country code: right length for NL, not for DE
		['de91ABNA0417164300', 'an IBAN from Germany (DE) has 22 characters, this one has 18'],
	])('%j: wrong length for the country', (typed, rule) => {
		expect(checkIban(typed)).toEqual({ ok: false, message: `"${typed}": ${rule}` });
	});

	it.each([
		'DE89-3704-0044-0532-0130-00',
		'DE89.3704.0044.0532.0130.00',
		'DE89_370400440532013000',
		'DE89370400440532013000!',
		'DE89 3704 0044 0532 0130 0ß',
		'DE89 3704 0044 0532 0130 ０0',
		'DE89\u00003704004405320130000',
		'DE89 3704 0044 0532 0130 00 💸',
	])('%j: characters no IBAN has', (typed) => {
		expect(checkIban(typed)).toEqual({
			ok: false,
			message: `${JSON.stringify(typed.trim())}: an IBAN has only letters and digits (spaces are fine and are removed)`,
		});
	});

	it.each([
		'1234567890123456',
		'89DE370400440532013000',
		'D189370400440532013000',
		'DEAB370400440532013000',
	])('%j: no country code and check digits at the start', (typed) => {
		expect(checkIban(typed)).toEqual({
			ok: false,
			message: `"${typed}": an IBAN starts with its 2-letter country code and 2 check digits (e.g. DE89)`,
		});
	});

	it('shows a long value shortened, and what was typed trimmed', () => {
		const long = `DE89${'1'.repeat(200)}`;
		const result = checkIban(long);
		expect(result).toEqual({
			ok: false,
			message: `"${long.slice(0, 40)}…": an IBAN from Germany (DE) has 22 characters, this one has 204`,
		});
		expect(checkIban('  DE00370400440532013000  ')).toEqual({
			ok: false,
			message: wrongCheckDigits('DE00370400440532013000'),
		});
	});
});

describe('BIC', () => {
	it.each([
		['COBADEFFXXX', 'COBADEFFXXX'],
		['COBADEFF', 'COBADEFF'],
		['cobadeff', 'COBADEFF'],
		['COBA DE FF XXX', 'COBADEFFXXX'],
		['cobaDEff xxx', 'COBADEFFXXX'],
		['\tNWBKGB2L ', 'NWBKGB2L'],
		['BYLADEM1001', 'BYLADEM1001'],
		['UBSWCHZH80A', 'UBSWCHZH80A'],
		['DEUT\u00A0DE\u00A0FF', 'DEUTDEFF'],
	])('%j is accepted and sent as %s', (typed, sent) => {
		expect(checkBic(typed)).toEqual({ ok: true, value: sent });
	});

	it.each([
		['COBADEF', 'a BIC has 8 or 11 characters, this one has 7'],
		['COBADEFFX', 'a BIC has 8 or 11 characters, this one has 9'],
		['COBADEFFXX', 'a BIC has 8 or 11 characters, this one has 10'],
		['COBADEFFXXXX', 'a BIC has 8 or 11 characters, this one has 12'],
		['COBA DEF FX', 'a BIC has 8 or 11 characters, this one has 9 without spaces'],
		['COBA-DEFF', 'a BIC has only letters and digits (spaces are fine and are removed)'],
		['COBADEFF.XX', 'a BIC has only letters and digits (spaces are fine and are removed)'],
		['C0BADEFF', 'a BIC starts with a 4-letter bank code'],
		['1234DEFF', 'a BIC starts with a 4-letter bank code'],
		['COBAD1FF', 'characters 5 and 6 of a BIC are its 2-letter country code'],
		['COBA12FFXXX', 'characters 5 and 6 of a BIC are its 2-letter country code'],
	])('%j is refused: %s', (typed, rule) => {
		expect(checkBic(typed)).toEqual({ ok: false, message: `"${typed}": ${rule}` });
	});
});

describe('sort code', () => {
	it.each([
		['040004', '040004'],
		['04-00-04', '040004'],
		['04 00 04', '040004'],
		[' 04 - 00 - 04 ', '040004'],
		['04\u201300\u201304', '040004'],
		['20-00-00', '200000'],
	])('%j is accepted and sent as %s', (typed, sent) => {
		expect(checkSortCode(typed)).toEqual({ ok: true, value: sent });
	});

	it.each([
		['04000', 'a sort code has 6 digits, this one has 5'],
		['0400041', 'a sort code has 6 digits, this one has 7'],
		['04-00-4', 'a sort code has 6 digits, this one has 5 without dashes and spaces'],
		['04/00/04', 'a sort code has only digits (dashes and spaces are fine and are removed)'],
		['04.00.04', 'a sort code has only digits (dashes and spaces are fine and are removed)'],
		['abcdef', 'a sort code has only digits (dashes and spaces are fine and are removed)'],
		['12a456', 'a sort code has only digits (dashes and spaces are fine and are removed)'],
		['０４０００４', 'a sort code has only digits (dashes and spaces are fine and are removed)'],
	])('%j is refused: %s', (typed, rule) => {
		expect(checkSortCode(typed)).toEqual({ ok: false, message: `"${typed}": ${rule}` });
	});
});
