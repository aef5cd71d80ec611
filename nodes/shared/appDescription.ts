/** What the action node does; also the description of its AI tool, which has no trigger. */
export const ACTIONS_DESCRIPTION =
	'Read accounts, balances, transactions and approvals, manage payees and send payments';

/**
 * The words the nodes panel shows for Customer Banking: the Customer Banking Trigger's description.
 *
 * How n8n picks them: the panel groups an action node with the trigger named like it plus "Trigger"
 * (customerBanking and customerBankingTrigger) into one entry listing both nodes' actions and
 * triggers, and gives that entry the trigger's `description` (n8n-editor-ui, the node types store's
 * generateMergedNodesAndActions copies it onto the action node's entry). A trigger describing only
 * itself would present the whole app as "Starts the workflow when…", also to someone adding an
 * action. So the trigger describes the app, actions first, as n8n's own n8n Trigger shares the n8n
 * node's description. The Approval Trigger has no action node of its name: it keeps an entry and
 * words of its own.
 */
export const APP_DESCRIPTION = `${ACTIONS_DESCRIPTION}, and start a workflow when money arrives or an outgoing payment settles`;
