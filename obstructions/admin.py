from obstructions.registers import admin as registers_admin  # noqa: F401  (the registers' back office)
