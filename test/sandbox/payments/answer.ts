import type { SeededRandom } from '../random';
import type { BankVariants } from '../variants';
import type { PaymentResponse, RejectedItem, SubmittedItem } from './model';

/**
 * The POST /payments answer as this bank writes it (variants.ts): spec §Payments promises only `xtid` on
 * accepted entries, `error` on rejected ones, `rejectedCount` and `requestId`; everything else (positions,
 * echoed details, state words, the order, whether the lists add up) is the bank's choice.
 */
export function shapeAnswer(
	answer: PaymentResponse,
	variants: BankVariants,
	random: SeededRandom,
): Record<string, unknown> {
	const odd = withOddity(answer, variants.answerOddity, random);
	const submitted = ordered(odd.submitted, variants.answerOrder, random);
	const rejected = ordered(odd.rejected, variants.answerOrder, random);
	if (variants.paymentAnswer === 'xtidOnly') {
		return {
			requestId: odd.requestId,
			submitted: submitted.map(({ xtid }) => ({ xtid })),
			rejected: rejected.map(({ error }) => ({ error })),
			rejectedCount: odd.rejectedCount,
		};
	}
	return {
		requestId: odd.requestId,
		submitted: submitted.map((entry) => detailedAccepted(entry, variants)),
		rejected: rejected.map((entry) => detailedRejected(entry, variants)),
		rejectedCount: odd.rejectedCount,
	};
}

function withOddity(
	answer: PaymentResponse,
	oddity: BankVariants['answerOddity'],
	random: SeededRandom,
): PaymentResponse {
	const submitted = [...answer.submitted];
	const rejected = [...answer.rejected];
	let { rejectedCount } = answer;
	switch (oddity) {
		case 'alsoRejected':
			for (const entry of answer.submitted) {
				rejected.push({
					index: entry.index,
					error: 'temporarily unavailable, try again',
					reference: entry.reference,
					xaid: entry.xaid,
					xpid: entry.xpid,
					amount: entry.amount,
				});
			}
			rejectedCount = rejected.length;
			break;
		case 'extraAccepted':
			for (const entry of answer.submitted) submitted.push({ ...entry, xtid: random.uuid() });
			break;
		case 'repeatedXtid':
			if (submitted.length >= 2) submitted[1] = { ...submitted[1], xtid: submitted[0].xtid };
			break;
		case 'wrongRejectedCount':
			rejectedCount += 1;
			break;
		case 'none':
			break;
	}
	return { ...answer, submitted, rejected, rejectedCount };
}

function ordered<T>(entries: T[], order: BankVariants['answerOrder'], random: SeededRandom): T[] {
	if (order === 'asSent') return entries;
	const shuffled = [...entries];
	for (let i = shuffled.length - 1; i > 0; i--) {
		const j = Math.floor(random.next() * (i + 1));
		[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
	}
	return shuffled;
}

const ECHOES = ['xaid', 'xpid', 'amount', 'currency', 'reference'];

/** The entry with its position as this bank numbers it, or none; the sandbox's key order kept. */
function positioned(
	entry: Record<string, unknown>,
	variants: BankVariants,
): Record<string, unknown> {
	const shaped = { ...entry };
	if (variants.answerPositions === 'absent') delete shaped.index;
	else if (variants.answerPositions === 'oneBased') shaped.index = Number(entry.index) + 1;
	if (!variants.answerEchoes) for (const field of ECHOES) delete shaped[field];
	return shaped;
}

function detailedAccepted(entry: SubmittedItem, variants: BankVariants): Record<string, unknown> {
	const shaped = positioned({ ...entry }, variants);
	if (variants.answerStatus !== 'sandbox') delete shaped.approvalRef;
	if (variants.answerStatus === 'none') delete shaped.status;
	if (variants.answerStatus === 'specWord') shaped.status = 'submitted';
	return shaped;
}

function detailedRejected(entry: RejectedItem, variants: BankVariants): Record<string, unknown> {
	return positioned({ ...entry }, variants);
}
