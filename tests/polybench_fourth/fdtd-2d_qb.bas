' FDTD-2D (PolyBench/C 4.2), QuickBASIC: CONST sizes, FOR time loop, bounds as NY - 1
CONST NX = 10, NY = 12, TMAX = 4
DIM EX(0 TO NX - 1, 0 TO NY - 1), EY(0 TO NX - 1, 0 TO NY - 1), HZ(0 TO NX - 1, 0 TO NY - 1)
DIM FICT(0 TO TMAX - 1)
DIM T AS INTEGER, I AS INTEGER, J AS INTEGER
FOR I = 0 TO TMAX - 1: FICT(I) = I: NEXT I
FOR I = 0 TO NX - 1
    FOR J = 0 TO NY - 1
        EX(I, J) = (I * (J + 1)) / NX
        EY(I, J) = (I * (J + 2)) / NY
        HZ(I, J) = (I * (J + 3)) / NX
    NEXT J
NEXT I
FOR T = 0 TO TMAX - 1
    FOR J = 0 TO NY - 1
        EY(0, J) = FICT(T)
    NEXT J
    FOR I = 1 TO NX - 1
        FOR J = 0 TO NY - 1
            EY(I, J) = EY(I, J) - .5 * (HZ(I, J) - HZ(I - 1, J))
        NEXT J
    NEXT I
    FOR I = 0 TO NX - 1
        FOR J = 1 TO NY - 1
            EX(I, J) = EX(I, J) - .5 * (HZ(I, J) - HZ(I, J - 1))
        NEXT J
    NEXT I
    FOR I = 0 TO NX - 2
        FOR J = 0 TO NY - 2
            HZ(I, J) = HZ(I, J) - .7 * (EX(I, J + 1) - EX(I, J) + EY(I + 1, J) - EY(I, J))
        NEXT J
    NEXT I
NEXT T
FOR I = 0 TO NX - 1 STEP 3
    PRINT USING "####.### "; EX(I, 1); EY(I, 2); HZ(I, 3)
NEXT I
