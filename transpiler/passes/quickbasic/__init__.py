"""QuickBASIC lowered to the base language: TYPE records (a variable or array per
field), array lower bounds, SUBs and FUNCTIONs (GOSUBs, printed as functions).
"""
