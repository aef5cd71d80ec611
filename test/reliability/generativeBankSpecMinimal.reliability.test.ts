import { describeGenerativeBank } from './generativeBank';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async () => undefined,
}));

describeGenerativeBank('specMinimal');
