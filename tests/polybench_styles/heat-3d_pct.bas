10 REM HEAT-3D, 1-based, integer variables, time loop
20 N% = 6 : TSTEPS% = 3
30 DIM A(6,6,6), B(6,6,6)
40 FOR I% = 1 TO N% : FOR J% = 1 TO N% : FOR K% = 1 TO N%
50 A(I%,J%,K%) = (I% + J% + (N% - K%)) * 10 / N% : B(I%,J%,K%) = A(I%,J%,K%)
60 NEXT K% : NEXT J% : NEXT I%
100 FOR T% = 1 TO TSTEPS%
110 FOR I% = 2 TO N% - 1
120 FOR J% = 2 TO N% - 1
130 FOR K% = 2 TO N% - 1
140 B(I%,J%,K%) = .125*(A(I%+1,J%,K%) - 2*A(I%,J%,K%) + A(I%-1,J%,K%)) + .125*(A(I%,J%+1,K%) - 2*A(I%,J%,K%) + A(I%,J%-1,K%)) + .125*(A(I%,J%,K%+1) - 2*A(I%,J%,K%) + A(I%,J%,K%-1)) + A(I%,J%,K%)
150 NEXT K% : NEXT J% : NEXT I%
210 FOR I% = 2 TO N% - 1
220 FOR J% = 2 TO N% - 1
230 FOR K% = 2 TO N% - 1
240 A(I%,J%,K%) = .125*(B(I%+1,J%,K%) - 2*B(I%,J%,K%) + B(I%-1,J%,K%)) + .125*(B(I%,J%+1,K%) - 2*B(I%,J%,K%) + B(I%,J%-1,K%)) + .125*(B(I%,J%,K%+1) - 2*B(I%,J%,K%) + B(I%,J%,K%-1)) + B(I%,J%,K%)
250 NEXT K% : NEXT J% : NEXT I%
280 NEXT T%
500 FOR I% = 1 TO N% : FOR J% = 1 TO N% : FOR K% = 1 TO N% : S = S + A(I%,J%,K%) * (I% + 2*J% + 3*K%) : NEXT K% : NEXT J% : NEXT I%
550 PRINT "HEAT-3D"; S
