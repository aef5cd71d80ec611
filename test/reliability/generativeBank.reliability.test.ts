import { describeGenerativeBank } from './generativeBank';

describeGenerativeBank('default');
