# lib/prof: trace model, in-process recorder, breakdown analysis, calibration.
LIB_SRCS += $(wildcard lib/prof/*.c)
