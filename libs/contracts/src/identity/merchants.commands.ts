import { ArrayMaxSize, IsArray, IsEmail, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';

const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;
/** An origin (scheme, host, optional port; a leading *. for subdomains), nothing that could break out of the CSP header. */
const FRAME_ANCESTOR = /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** A merchant as platform admins see it. */
export interface MerchantAdminView {
  id: string;
  name: string;
  email: string;
  etransfer_email: string | null;
  frame_ancestors: string[];
  created_at: string;
  updated_at: string;
}

/** `identity.merchants.list.v1`: newest first; `search` matches name, e-mail or deposit address (case-insensitive). */
export class ListMerchantsQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @Matches(MERCHANT_ID)
  starting_after?: string;
}

/** `identity.merchants.create.v1`: the rules of POST /v1/admin/merchants (the owner's password is generated). */
export class CreateMerchantCommand {
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name!: string;

  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email!: string;

  @IsOptional()
  @IsEmail({}, { message: 'etransfer_email must be an e-mail address' })
  @MaxLength(254, { message: 'etransfer_email must be at most 254 characters' })
  etransfer_email?: string;
}

/** `identity.merchants.update.v1`: the deposit address (null clears it) and the origins allowed to frame the embedded checkout. */
export class UpdateMerchantCommand {
  @Matches(MERCHANT_ID, { message: 'merchant_id must look like mer_…' })
  merchant_id!: string;

  @ValidateIf((command: UpdateMerchantCommand) => command.etransfer_email !== null && command.etransfer_email !== undefined)
  @IsEmail({}, { message: 'etransfer_email must be an e-mail address' })
  @MaxLength(254, { message: 'etransfer_email must be at most 254 characters' })
  etransfer_email?: string | null;

  @IsOptional()
  @IsArray({ message: 'frame_ancestors must be an array of origins' })
  @ArrayMaxSize(20, { message: 'frame_ancestors must list at most 20 origins' })
  @Matches(FRAME_ANCESTOR, { each: true, message: 'frame_ancestors must each be an origin such as https://shop.example.com or https://*.example.com' })
  frame_ancestors?: string[];
}
