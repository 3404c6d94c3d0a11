import { Module } from '@nestjs/common';
import { AdminCustomersController } from './admin-customers.controller.js';
import { CustomersService } from './customers.service.js';

@Module({
  controllers: [AdminCustomersController],
  providers: [CustomersService],
  exports: [CustomersService],
})
export class CustomersModule {}
