import { describeGenerativeBank } from './generativeBank';

describeGenerativeBank('specMinimal');
