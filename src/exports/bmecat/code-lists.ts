/**
 * Code lists of the BMEcat schemas, extracted from the XSD enumerations in schemas/bmecat/xsd
 * (BMEcat 2005 `dtPUNIT`/`dtLANG`/`dtCURRENCIES`, identical in the 1.2 XSD; ETIM guideline 5.0
 * `dtUNIT`/`dtCURRENCIES`). A value outside its list would fail validation, so exporters check
 * against these before writing a unit, language or currency. The lists are the schemas'
 * `xsd:enumeration` values, copied verbatim in schema order.
 */
function codeSet(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/** UN/ECE Recommendation 20 units allowed in ORDER_UNIT / CONTENT_UNIT (BMEcat 2005 and 1.2). */
export const UNITS_2005 = codeSet(
  '04 05 08 10 11 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 1G 1H 1I 1J 1K 1L 1M 1X 20 21 22 23 24 25 ' +
    '26 27 28 29 2A 2B 2C 2I 2J 2K 2L 2M 2N 2P 2Q 2R 2U 2V 2W 2X 2Y 2Z 30 31 32 33 34 35 36 37 38 3B ' +
    '3C 3E 3G 3H 3I 40 41 43 44 45 46 47 48 4A 4B 4C 4E 4G 4H 4K 4L 4M 4N 4O 4P 4Q 4R 4T 4U 4W 4X 53 ' +
    '54 56 57 58 59 5A 5B 5C 5E 5F 5G 5H 5I 5J 5K 5P 5Q 60 61 62 63 64 66 69 71 72 73 74 76 77 78 80 ' +
    '81 84 85 87 89 90 91 92 93 94 95 96 97 98 A1 A10 A11 A12 A13 A14 A15 A16 A17 A18 A19 A2 A20 A21 ' +
    'A22 A23 A24 A25 A26 A27 A28 A29 A3 A30 A31 A32 A33 A34 A35 A36 A37 A38 A39 A4 A40 A41 A42 A43 ' +
    'A44 A45 A47 A48 A49 A5 A50 A51 A52 A53 A54 A55 A56 A57 A58 A6 A60 A61 A62 A63 A64 A65 A66 A67 ' +
    'A68 A69 A7 A70 A71 A73 A74 A75 A76 A77 A78 A79 A8 A80 A81 A82 A83 A84 A85 A86 A87 A88 A89 A9 A90 ' +
    'A91 A93 A94 A95 A96 A97 A98 AA AB ACR AD AE AH AI AJ AK AL AM AMH AMP ANN AP APZ AQ AR ARE AS ' +
    'ASM ASU ATM ATT AV AW AY AZ B0 B1 B11 B12 B13 B14 B15 B16 B18 B2 B20 B21 B22 B23 B24 B25 B26 B27 ' +
    'B28 B29 B3 B31 B32 B33 B34 B35 B36 B37 B38 B39 B4 B40 B41 B42 B43 B44 B45 B46 B47 B48 B49 B5 B50 ' +
    'B51 B52 B53 B54 B55 B56 B57 B58 B59 B6 B60 B61 B62 B63 B64 B65 B66 B67 B69 B7 B70 B71 B72 B73 ' +
    'B74 B75 B76 B77 B78 B79 B8 B81 B83 B84 B85 B86 B87 B88 B89 B9 B90 B91 B92 B93 B94 B95 B96 B97 ' +
    'B98 B99 BAR BB BD BE BFT BG BH BHP BIL BJ BK BL BLD BLL BO BP BQL BR BT BTU BUA BUI BW BX BZ C0 ' +
    'C1 C10 C11 C12 C13 C14 C15 C16 C17 C18 C19 C2 C20 C22 C23 C24 C25 C26 C27 C28 C29 C3 C30 C31 C32 ' +
    'C33 C34 C35 C36 C38 C39 C4 C40 C41 C42 C43 C44 C45 C46 C47 C48 C49 C5 C50 C51 C52 C53 C54 C55 ' +
    'C56 C57 C58 C59 C6 C60 C61 C62 C63 C64 C65 C66 C67 C68 C69 C7 C70 C71 C72 C73 C75 C76 C77 C78 C8 ' +
    'C80 C81 C82 C83 C84 C85 C86 C87 C88 C89 C9 C90 C91 C92 C93 C94 C95 C96 C97 C98 C99 CA CCT CDL ' +
    'CEL CEN CG CGM CH CJ CK CKG CL CLF CLT CMK CMQ CMT CNP CNT CO COU CQ CR CS CT CTM CU CUR CV CWA ' +
    'CWI CY CZ D1 D10 D12 D13 D14 D15 D16 D17 D18 D19 D2 D20 D21 D22 D23 D24 D25 D26 D27 D28 D29 D30 ' +
    'D31 D32 D33 D34 D35 D37 D38 D39 D40 D41 D42 D43 D44 D45 D46 D47 D48 D49 D5 D50 D51 D52 D53 D54 ' +
    'D55 D56 D57 D58 D59 D6 D60 D61 D62 D63 D64 D65 D66 D67 D69 D7 D70 D71 D72 D73 D74 D75 D76 D77 ' +
    'D79 D8 D80 D81 D82 D83 D85 D86 D87 D88 D89 D9 D90 D91 D92 D93 D94 D95 D96 D97 D98 D99 DAA DAD ' +
    'DAY DB DC DD DE DEC DG DI DJ DLT DMK DMQ DMT DN DPC DPR DPT DQ DR DRA DRI DRL DRM DS DT DTN DU ' +
    'DWT DX DY DZN DZP E10 E11 E2 E3 E4 E5 EA EB EC EP EQ EV F1 F9 FAH FAR FB FC FD FE FF FG FH FL FM ' +
    'FOT FP FR FS FTK FTQ G2 G3 G7 GB GBQ GC GD GE GF GFI GGR GH GIA GII GJ GK GL GLD GLI GLL GM GN ' +
    'GO GP GQ GRM GRN GRO GRT GT GV GW GWH GY GZ H1 H2 HA HAR HBA HBX HC HD HE HF HGM HH HI HIU HJ HK ' +
    'HL HLT HM HMQ HMT HN HO HP HPA HS HT HTZ HUR HY IA IC IE IF II IL IM INH INK INQ IP IT IU IV J2 ' +
    'JB JE JG JK JM JO JOU JR K1 K2 K3 K5 K6 KA KB KBA KD KEL KF KG KGM KGS KHZ KI KJ KJO KL KMH KMK ' +
    'KMQ KNI KNS KNT KO KPA KPH KPO KPP KR KS KSD KSH KT KTM KTN KUR KVA KVR KVT KW KWH KWT KX L2 LA ' +
    'LBR LBT LC LD LE LEF LF LH LI LJ LK LM LN LO LP LPA LR LS LTN LTR LUM LUX LX LY M0 M1 M4 M5 M7 ' +
    'M9 MA MAL MAM MAW MBE MBF MBR MC MCU MD MF MGM MHZ MIK MIL MIN MIO MIU MK MLD MLT MMK MMQ MMT ' +
    'MON MPA MQ MQH MQS MSK MT MTK MTQ MTR MTS MV MVA MWH N1 N2 N3 NA NAR NB NBB NC NCL ND NE NEW NF ' +
    'NG NH NI NIU NJ NL NMI NMP NN NPL NPR NPT NQ NR NRL NT NTT NU NV NX NY OA OHM ON ONZ OP OT OZ ' +
    'OZA OZI P0 P1 P2 P3 P4 P5 P6 P7 P8 P9 PA PAL PB PD PE PF PG PGL PI PK PL PM PN PO PQ PR PS PT ' +
    'PTD PTI PTL PU PV PW PY PZ Q3 QA QAN QB QD QH QK QR QT QTD QTI QTL QTR R1 R4 R9 RA RD RG RH RK ' +
    'RL RM RN RO RP RPM RPS RS RT RU S3 S4 S5 S6 S7 S8 SA SAN SCO SCR SD SE SEC SET SG SHT SIE SK SL ' +
    'SMI SN SO SP SQ SR SS SST ST STI STN SV SW SX T0 T1 T3 T4 T5 T6 T7 T8 TA TAH TC TD TE TF TI TJ ' +
    'TK TL TN TNE TP TPR TQ TQD TR TRL TS TSD TSH TT TU TV TW TY U1 U2 UA UB UC UD UE UF UH UM VA VI ' +
    'VLT VQ VS W2 W4 WA WB WCD WE WEB WEE WG WH WHR WI WM WR WSD WTT WW X1 YDK YDQ YL YRD YT Z1 Z2 Z3 ' +
    'Z4 Z5 Z6 Z8 ZP ZZ',
);

/** Units the ETIM guideline 5.0 allows in ORDER_UNIT / CONTENT_UNIT. */
export const UNITS_ETIM = codeSet(
  'ANN BE BG BO BX C62 CA CL CMK CMQ CMT CQ CR CS CT D99 DAY DR GRM HUR KG KGM KTM LTR MGM MLT MMK ' +
    'MMT MMQ MTR MTK MTQ PA PF PK PL PR PU RG RL RO SA SEC SET ST TN TNE TU WEE Z2 Z3',
);

/** ISO 639-2 language codes (BMEcat 2005 and 1.2). */
export const LANGUAGES_2005 = codeSet(
  'aar abk ace ach ada afa afh afr aka akk alb ale alg amh ang apa ara arc arm arn arp art arw asm ' +
    'ath aus ava ave awa aym aze bad bai bak bal bam ban baq bas bat bej bel bem ben ber bho bih bik ' +
    'bin bis bla bnt bod bos bra bre btk bua bug bul bur cad cai car cat cau ceb cel ces cha chb che ' +
    'chg chi chk chm chn cho chp chr chu chv chy cmc cop cor cos cpe cpf cpp cre crp cus cym cze dak ' +
    'dan day del den deu dgr din div doi dra dua dum dut dyu dzo efi egy eka ell elx eng enm epo est ' +
    'eus ewe ewo fan fao fas fat fij fin fiu fon fra fre frm fro fry ful fur gaa gay gba gem geo ger ' +
    'gez gil gla gle glg glv gmh goh gon gor got grb grc gre grn guj gwi hai hau haw heb her hil him ' +
    'hin hit hmn hmo hrv hun hup hye iba ibo ice ijo iku ile ilo ina inc ind ine ipk ira iro isl ita ' +
    'jav jpn jpr jrb kaa kab kac kal kam kan kar kas kat kau kaw kaz kha khi khm kho kik kin kir kmb ' +
    'kok kom kon kor kos kpe kro kru kua kum kur kut lad lah lam lao lat lav lez lin lit lol loz ltz ' +
    'lua lub lug lui lun luo lus mac mad mag mah mai mak mal man mao map mar mas may mdr men mga mic ' +
    'min mis mkd mkh mlg mlt mnc mni mno moh mol mon mos mri msa mul mun mus mwr mya myn nah nai nau ' +
    'nav nbl nde ndo nds nep new nia nic niu nld nno nob non nor nso nub nya nym nyn nyo nzi oci oji ' +
    'ori orm osa oss ota oto paa pag pal pam pan pap pau peo per phi phn pli pol pon por pra pro pus ' +
    'qaa que raj rap rar roa roh rom ron rum run rus sad sag sah sai sal sam san sas sat scc sco scr ' +
    'sel sem sga sgn shn sid sin sio sit sla slk slo slv sme smi smo sna snd snk sog som son sot spa ' +
    'sqi srd srp srr ssa ssw suk sun sus sux swa swe syr tah tai tam tat tel tem ter tet tgk tgl tha ' +
    'tib tig tir tiv tkl tli tmh tog ton tpi tsi tsn tso tuk tum tur tut tvl twi tyv uga uig ukr umb ' +
    'und urd uzb vai ven vie vol vot wak wal war was wel wen wol xho yao yap yid yor ypk zap zen zha ' +
    'zho znd zul',
);

/** ISO 639-2 language codes of the ETIM guideline 5.0: the BMEcat 2005 list plus Walloon. */
export const LANGUAGES_ETIM: ReadonlySet<string> = new Set([...LANGUAGES_2005, 'wln']);

/** ISO 4217 currency codes (BMEcat 2005 and 1.2). */
export const CURRENCIES_2005 = codeSet(
  'ADP AED AFA ALL ANG AOK ARA ATS AUD AWG BBD BDT BEF BGL BHD BIF BMD BND BOB BRC BSD BTN BUK BWP ' +
    'BZD CAD CHF CLF CLP CNY COP CRC CSK CUP CVE CYP DDM DEM DJF DKK DOP DZD ECS EGP ESP ETB EUR FIM ' +
    'FJD FKP FRF GBP GHC GIP GMD GNF GRD GTQ GWP GYD HKD HNL HTG HUF IDR IEP ILS INR IQD IRR ISK ITL ' +
    'JMD JOD JPY KES KHR KMF KPW KRW KWD KYD LAK LBP LKR LRD LSL LUF LYD MAD MGF MNT MOP MRO MTL MUR ' +
    'MVR MWK MXP MYR MZM NGN NIC NLG NOK NPR NZD OMR PAB PEI PGK PHP PKR PLZ PTE PYG QAR ROL RWF SAR ' +
    'SBD SCR SDP SEK SGD SHP SLL SKK SOS SRG STD SUR SVC SYP SZL THB TND TOP TPE TRL TTD TWD TZS UGS ' +
    'USD UYP VEB VND VUV WST YDD YER YUD ZAR ZMK ZRZ ZWD',
);

/** ISO 4217 currency codes of the ETIM guideline 5.0. */
export const CURRENCIES_ETIM = codeSet(
  'ADP AED AFA AFN ALL AMD ANG AOA AOK ARA ARS ATS AUD AWG AZN BAM BBD BDT BEF BGL BGN BHD BIF BMD ' +
    'BND BOB BOV BRC BRL BSD BTN BUK BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CSK CUC ' +
    'CUP CVE CYP CZK DDM DEM DJF DKK DOP DZD ECS EGP ERN ESP ETB EUR FIM FJD FKP FRF GBP GEL GHC GHS ' +
    'GIP GMD GNF GRD GTQ GWP GYD HKD HNL HRK HTG HUF IDR IEP ILS INR IQD IRR ISK ITL JMD JOD JPY KES ' +
    'KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LUF LYD MAD MDL MGA MGF MKD MMK MNT MOP MRO ' +
    'MRU MTL MUR MVR MWK MXN MXP MXV MYR MZM MZN NAD NGN NIC NIO NLG NOK NPR NZD OMR PAB PEI PEN PGK ' +
    'PHP PKR PLZ PLN PTE PYG QAR ROL RON RSD RUB RWF SAR SBD SCR SDG SDP SEK SGD SHP SLL SKK SOS SRD ' +
    'SRG SSP STD STN SUR SVC SYP SZL THB TJS TMT TND TOP TPE TRL TRY TTD TWD TZS UAH UGS UGX USD USN ' +
    'UYI UYP UYU UYW UZS VEB VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU ' +
    'XTS XUA XXX YDD YER YUD ZAR ZMK ZMW ZRZ ZWD ZWL',
);
