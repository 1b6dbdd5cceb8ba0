//! SMBIOS table parser: pure functions over the bytes of the entry point and DMI table.
