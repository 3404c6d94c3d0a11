import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AdminAccessTokensController } from './admin-access-tokens.controller.js';
import { AuthRepository } from './auth.repository.js';
import { AuthService } from './auth.service.js';
import { BearerStrategy } from './bearer.strategy.js';
import { ProvisioningService } from './provisioning.service.js';

@Global()
@Module({
  imports: [PassportModule],
  controllers: [AdminAccessTokensController],
  providers: [AuthService, AuthRepository, BearerStrategy, ProvisioningService],
  exports: [AuthService, ProvisioningService],
})
export class AuthModule {}
