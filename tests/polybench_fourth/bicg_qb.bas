' BiCG sub kernel: S := A'R, Q := A P (PolyBench/C 4.2), QuickBASIC, DO loops for setup
DEFDBL A-Z
M% = 12: N% = 14
DIM A(0 TO N% - 1, 0 TO M% - 1), R(0 TO N% - 1), P(0 TO M% - 1)
DIM S(0 TO M% - 1), Q(0 TO N% - 1)
I% = 0
DO WHILE I% < M%
    P(I%) = (I% MOD M%) / M%
    I% = I% + 1
LOOP
I% = 0
DO
    R(I%) = (I% MOD N%) / N%
    FOR J% = 0 TO M% - 1
        A(I%, J%) = (I% * (J% + 1) MOD N%) / N%
    NEXT J%
    I% = I% + 1
LOOP UNTIL I% = N%

FOR I% = 0 TO M% - 1
    S(I%) = 0
NEXT I%
FOR I% = 0 TO N% - 1
    Q(I%) = 0
    FOR J% = 0 TO M% - 1
        S(J%) = S(J%) + R(I%) * A(I%, J%)
        Q(I%) = Q(I%) + A(I%, J%) * P(J%)
    NEXT J%
NEXT I%

FOR I% = 0 TO M% - 1 STEP 3: PRINT USING "s ##.######"; S(I%): NEXT I%
FOR I% = 0 TO N% - 1 STEP 3: PRINT USING "q ##.######"; Q(I%): NEXT I%
