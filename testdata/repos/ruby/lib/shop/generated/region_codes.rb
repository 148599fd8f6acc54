# This file is generated from data/codes.csv by script/gencodes; regenerate it, do not edit it by hand.

module Shop
  module Generated
    module RegionCodes
      NUMBERS = {
        "ORY" => 645,
        "TZF" => 830,
        "WUB" => 852,
        "QCB" => 476,
        "KOS" => 679,
        "COU" => 236,
        "QJA" => 867,
        "JMC" => 482,
        "MWM" => 90,
        "JKA" => 477,
        "ZPF" => 393,
        "DMN" => 216,
        "FMT" => 337,
        "CCG" => 983,
        "SPS" => 838,
        "THX" => 973,
        "MPT" => 525,
        "IHX" => 130,
        "HPR" => 422,
        "OHB" => 997,
        "ECL" => 599,
        "ESB" => 22,
        "TUC" => 560,
        "LXB" => 893,
        "NZA" => 624,
        "CCC" => 452,
        "ORC" => 981,
        "WDP" => 208,
        "QFY" => 257,
        "GUN" => 140,
        "EPL" => 462,
        "PIG" => 464,
        "KCB" => 317,
        "UZS" => 26,
        "YIH" => 646,
        "RUU" => 732,
        "AYP" => 970,
        "QQT" => 955,
        "XME" => 901,
        "QZK" => 127,
        "GHM" => 932,
        "WAL" => 942,
        "AGZ" => 344,
        "VZE" => 593,
        "WCY" => 655,
        "FQQ" => 537,
        "ISP" => 387,
        "ARB" => 68,
        "RON" => 538,
        "KDG" => 199,
        "EHA" => 597,
        "DQT" => 649,
        "NQT" => 543,
        "GRT" => 323,
        "GGY" => 266,
        "MDN" => 819,
        "ADG" => 515,
        "VGZ" => 565,
        "TQS" => 950,
        "VDS" => 100,
        "KMO" => 718,
        "BGF" => 98,
        "QZA" => 196,
        "QSK" => 137,
        "KRW" => 190,
        "CZK" => 238,
        "IVJ" => 399,
        "QPU" => 118,
        "TDX" => 201,
        "UMA" => 554,
        "QNQ" => 778,
        "BMF" => 968,
        "PNJ" => 575,
        "JVW" => 773,
        "VMB" => 817,
        "HNX" => 932,
        "OEH" => 366,
        "QED" => 655,
        "SVN" => 245,
        "PDQ" => 702,
        "XSW" => 938,
        "GVB" => 555,
        "ICY" => 383,
        "PPL" => 822,
        "DOZ" => 155,
        "LEU" => 595,
        "DOK" => 497,
        "VOJ" => 84,
        "WJP" => 376,
        "DKW" => 470,
        "KHM" => 397,
        "ZGX" => 92,
        "YOJ" => 582,
        "JAU" => 84,
        "IXD" => 836,
        "UNH" => 827,
        "KVE" => 421,
        "YVL" => 656,
        "AQL" => 385,
        "VFK" => 483,
        "JXD" => 18,
        "SPZ" => 223,
        "SHT" => 960,
        "JUR" => 495,
        "HMB" => 529,
        "YIZ" => 461,
        "ZHW" => 930,
        "ZQE" => 2,
        "GEE" => 100,
        "PWO" => 20,
        "ZGN" => 557,
        "NQP" => 314,
        "OVW" => 684,
        "MVO" => 301,
        "SDO" => 298,
        "UMR" => 386,
        "XDK" => 847,
        "MCD" => 184,
        "FGM" => 233,
        "BFD" => 211,
        "YEW" => 717,
        "KZZ" => 194,
        "KJU" => 845,
        "DTW" => 362,
        "TQQ" => 856,
        "GSA" => 342,
        "KCL" => 557,
        "RRC" => 702,
        "LHY" => 414,
        "FZV" => 607,
        "UZY" => 147,
        "QMD" => 55,
        "UZB" => 919,
        "TWS" => 580,
        "DQK" => 922,
        "NXM" => 249,
        "QMB" => 963,
        "HCX" => 581,
        "DCD" => 746,
        "JAK" => 366,
        "WSH" => 333,
        "PEY" => 921,
        "PAF" => 314,
        "XKI" => 174,
        "HJD" => 280,
        "LZV" => 136,
        "UVC" => 601,
        "JRI" => 184,
        "IXR" => 473,
        "YSM" => 796,
        "ULK" => 975,
        "RFT" => 561,
        "WZX" => 511,
        "IBG" => 624,
        "PZN" => 656,
        "RSZ" => 757,
        "QYI" => 509,
        "WVT" => 994,
        "BEP" => 420,
        "QEC" => 782,
        "XTH" => 955,
        "HLJ" => 60,
        "XKS" => 429,
        "LHF" => 316,
        "POP" => 284,
        "LIT" => 403,
        "SUW" => 960,
        "YLE" => 86,
        "MKI" => 155,
        "QTE" => 558,
        "WEQ" => 548,
        "WOM" => 380,
        "LTG" => 12,
        "ZYX" => 683,
        "DYL" => 123,
        "MPB" => 948,
        "MGP" => 761,
        "KNZ" => 717,
        "AMD" => 308,
        "PXK" => 305,
        "IVF" => 78,
        "UBT" => 990,
        "MBZ" => 485,
        "AET" => 534,
        "ARM" => 562,
        "CTR" => 713,
        "MVF" => 825,
        "SJL" => 256,
        "LKW" => 907,
        "WJD" => 891,
        "PBL" => 734,
        "UIL" => 657,
        "WET" => 668,
        "FAP" => 682,
        "MMV" => 293,
        "LXR" => 176,
        "LCJ" => 784,
        "ESM" => 956,
        "IPN" => 583,
        "EIU" => 266,
        "RBE" => 5,
        "FKP" => 360,
        "ZRM" => 962,
        "JHZ" => 692,
        "CIL" => 478,
        "AGC" => 947,
        "XPM" => 959,
        "PMW" => 398,
        "XLQ" => 927,
        "UKT" => 217,
        "BXE" => 359,
        "FNA" => 330,
        "RYG" => 111,
        "SKN" => 694,
        "MKF" => 933,
        "UBG" => 125,
        "XWX" => 616,
        "RSB" => 56,
        "KER" => 565,
        "MBE" => 107,
        "QII" => 531,
        "ZLO" => 985,
        "UHC" => 898,
        "HCZ" => 183,
        "DKB" => 32,
        "VTO" => 994,
        "GRV" => 618,
        "GWG" => 43,
        "EID" => 71,
        "WGX" => 384,
        "TNI" => 241,
        "PSD" => 957,
        "PMG" => 599,
        "OVI" => 422,
        "LES" => 107,
        "RVD" => 605,
        "VWL" => 371,
        "FOQ" => 809,
        "MNH" => 955,
        "GQS" => 760,
        "ZCA" => 680,
        "ZXP" => 881,
        "LAD" => 97,
        "JQS" => 91,
        "QQJ" => 56,
        "GSO" => 871,
        "QEE" => 235,
        "EZD" => 506,
        "JRU" => 268,
        "RDV" => 950,
        "DMU" => 440,
        "ZPM" => 856,
        "QBF" => 34,
        "KLP" => 383,
        "NSD" => 987,
        "TWL" => 510,
        "DQY" => 815,
        "NUL" => 852,
        "IKB" => 782,
        "PBM" => 771,
        "GSR" => 641,
        "CFZ" => 776,
        "OVN" => 856,
        "DLV" => 117,
        "GDN" => 33,
        "NMG" => 108,
        "RXF" => 823,
        "QVM" => 721,
        "MKC" => 944,
        "CZI" => 424,
        "QOM" => 513,
        "EBW" => 458,
        "YLZ" => 756,
        "TLD" => 333,
        "LDZ" => 551,
        "JIR" => 813,
        "IQE" => 167,
        "RYV" => 807,
        "RHP" => 580,
        "XLH" => 74,
        "JAD" => 70,
        "EAN" => 190,
        "CQW" => 498,
        "GCW" => 225,
        "WIE" => 586,
        "TTK" => 115,
        "JJA" => 776,
        "VZC" => 854,
        "HNL" => 49,
        "SLQ" => 154,
        "GIO" => 267,
        "ISA" => 758,
        "XGV" => 702,
        "YQH" => 72,
        "CME" => 929,
        "JRS" => 147,
        "CGF" => 328,
        "BGH" => 377,
        "LXD" => 127,
        "JKF" => 540,
        "ICC" => 654,
        "SDJ" => 196,
        "EPV" => 54,
        "JFB" => 435,
        "ZPT" => 267,
        "TRL" => 628,
        "NNR" => 480,
        "QRJ" => 162,
        "WKJ" => 945,
        "ZQU" => 868,
        "USO" => 64,
        "UEA" => 241,
        "SMZ" => 437,
        "LRB" => 862,
        "VQQ" => 684,
        "EVH" => 250,
        "BZA" => 887,
        "CVF" => 191,
        "TWY" => 60,
        "NNY" => 231,
        "MWL" => 237,
        "UTY" => 478,
        "IWF" => 339,
        "KBA" => 342,
        "DIG" => 763,
        "QHJ" => 72,
        "KBL" => 809,
        "PCD" => 657,
        "QIS" => 154,
        "FRI" => 468,
        "BND" => 712,
        "TOE" => 698,
        "TNB" => 585,
        "PMA" => 977,
        "HXP" => 591,
        "GIB" => 679,
        "NGO" => 92,
        "OXP" => 77,
        "XHJ" => 446,
        "GUJ" => 350,
        "SWM" => 93,
        "TMH" => 841,
        "GUM" => 765,
        "LSP" => 26,
        "EYY" => 541,
        "PKF" => 621,
        "BOO" => 78,
        "AJR" => 551,
        "QAR" => 894,
        "THG" => 757,
        "GIA" => 640,
        "WLW" => 453,
        "ZZS" => 635,
        "KEU" => 783,
        "FPL" => 235,
        "PWV" => 557,
        "SAD" => 883,
        "MCZ" => 568,
        "IBV" => 296,
        "HRA" => 16,
      }.freeze

      def self.name_of(code)
        case code
        when "ORY" then "Oqsgfzqp"
        when "TZF" then "Ojecr"
        when "WUB" then "Mouxtufta"
        when "QCB" then "Ghtay"
        when "KOS" then "Qhujpa"
        when "COU" then "Nrcwiky"
        when "QJA" then "Sydmd"
        when "JMC" then "Vaggb"
        when "MWM" then "Csugyvik"
        when "JKA" then "Ydehwdab"
        when "ZPF" then "Rgoqgxyenu"
        when "DMN" then "Aizsja"
        when "FMT" then "Sdbegoiayt"
        when "CCG" then "Uhatlltoe"
        when "SPS" then "Mfuejh"
        when "THX" then "Fxurgv"
        when "MPT" then "Nbddb"
        when "IHX" then "Mintpjqfxc"
        when "HPR" then "Ttciggxaci"
        when "OHB" then "Fjlqs"
        when "ECL" then "Okvxwq"
        when "ESB" then "Plwjb"
        when "TUC" then "Cxjkecco"
        when "LXB" then "Xwezklcvpc"
        when "NZA" then "Satvmmsa"
        when "CCC" then "Dinxkmxwso"
        when "ORC" then "Yqajtcpah"
        when "WDP" then "Vpialjevt"
        when "QFY" then "Vophkmv"
        when "GUN" then "Gmhskg"
        when "EPL" then "Wcifd"
        when "PIG" then "Muqpvkwt"
        when "KCB" then "Tbvwisl"
        when "UZS" then "Uemog"
        when "YIH" then "Zbudod"
        when "RUU" then "Cvggpif"
        when "AYP" then "Wbfhiylrw"
        when "QQT" then "Mzwhcn"
        when "XME" then "Oguamrsu"
        when "QZK" then "Kugdxzuw"
        when "GHM" then "Jrzki"
        when "WAL" then "Cbokrnyip"
        when "AGZ" then "Nzbfr"
        when "VZE" then "Eqxqvwop"
        when "WCY" then "Oqrjxr"
        when "FQQ" then "Ijvmtgjer"
        when "ISP" then "Nrdqat"
        when "ARB" then "Mrzsdpcwf"
        when "RON" then "Ihppeknp"
        when "KDG" then "Taiewyab"
        when "EHA" then "Jkxlhtpdpx"
        when "DQT" then "Wgwqnam"
        when "NQT" then "Rgurug"
        when "GRT" then "Ehxuzlfkt"
        when "GGY" then "Dehexc"
        when "MDN" then "Rzwegmuv"
        when "ADG" then "Vlldwquyk"
        when "VGZ" then "Pdaby"
        when "TQS" then "Egfdgffj"
        when "VDS" then "Evocy"
        when "KMO" then "Qlngtlau"
        when "BGF" then "Olxlmgtf"
        when "QZA" then "Czwumst"
        when "QSK" then "Idxxyfm"
        when "KRW" then "Ynyfmgx"
        when "CZK" then "Pdalutb"
        when "IVJ" then "Gvmsfrc"
        when "QPU" then "Wdymsa"
        when "TDX" then "Iomqby"
        when "UMA" then "Iiikr"
        when "QNQ" then "Duozucrtv"
        when "BMF" then "Pfprttbn"
        when "PNJ" then "Mtjlqjpui"
        when "JVW" then "Jaayhsbufn"
        when "VMB" then "Xmbsxkc"
        when "HNX" then "Iyhbqdzx"
        when "OEH" then "Wdbtnodgb"
        when "QED" then "Oevnoti"
        when "SVN" then "Yxqejxe"
        when "PDQ" then "Zqtliit"
        when "XSW" then "Guiyhghqu"
        when "GVB" then "Baiinatbdh"
        when "ICY" then "Vfrhu"
        when "PPL" then "Kkpxec"
        when "DOZ" then "Yygonximz"
        when "LEU" then "Kjryxfnul"
        when "DOK" then "Rcnss"
        when "VOJ" then "Cjgvt"
        when "WJP" then "Ywkjehlvxk"
        when "DKW" then "Stvioqzj"
        when "KHM" then "Qhcllalvms"
        when "ZGX" then "Lzmressff"
        when "YOJ" then "Hqbrf"
        when "JAU" then "Csrjzrck"
        when "IXD" then "Cauuedx"
        when "UNH" then "Hpyqkyomlk"
        when "KVE" then "Przxcwtb"
        when "YVL" then "Zmcor"
        when "AQL" then "Azdnnehxfu"
        when "VFK" then "Mnqjib"
        when "JXD" then "Ueyfbyo"
        when "SPZ" then "Kdgfl"
        when "SHT" then "Ptqhofimfy"
        when "JUR" then "Pipmkvryc"
        when "HMB" then "Ezzmqz"
        when "YIZ" then "Vhapl"
        when "ZHW" then "Tfnfykei"
        when "ZQE" then "Xtiqrbesyf"
        when "GEE" then "Litwq"
        when "PWO" then "Xsrqj"
        when "ZGN" then "Vczogb"
        when "NQP" then "Jkjmcr"
        when "OVW" then "Lcved"
        when "MVO" then "Zduoamwwph"
        when "SDO" then "Zxgte"
        when "UMR" then "Jkymrvcigg"
        when "XDK" then "Ispxuko"
        when "MCD" then "Tdevuw"
        when "FGM" then "Oswcd"
        when "BFD" then "Nycknqeu"
        when "YEW" then "Pkntaxmt"
        when "KZZ" then "Vtqaik"
        when "KJU" then "Drmgqkzj"
        when "DTW" then "Iyrjrh"
        when "TQQ" then "Swgqww"
        when "GSA" then "Vgycehpsnw"
        when "KCL" then "Odoxehs"
        when "RRC" then "Ifxktedaj"
        when "LHY" then "Lfftrzcob"
        when "FZV" then "Jyvxmt"
        when "UZY" then "Fgnob"
        when "QMD" then "Mfkqeihsk"
        when "UZB" then "Vzemptdpln"
        when "TWS" then "Yjpownnd"
        when "DQK" then "Qnnakbjxt"
        when "NXM" then "Kyzjschdo"
        when "QMB" then "Wdqhrjvm"
        when "HCX" then "Lrnszfhuxn"
        when "DCD" then "Zedrsoajh"
        when "JAK" then "Cooqme"
        when "WSH" then "Jaokj"
        when "PEY" then "Ggjwbgkl"
        when "PAF" then "Wrgruhgbud"
        when "XKI" then "Wekwyonc"
        when "HJD" then "Wgifxhqvjz"
        when "LZV" then "Dsqhjfvhi"
        when "UVC" then "Coqcqbat"
        when "JRI" then "Zscfjygh"
        when "IXR" then "Fzebt"
        when "YSM" then "Pbfcr"
        when "ULK" then "Pzbqjquvqx"
        when "RFT" then "Dtnhvo"
        when "WZX" then "Iprhst"
        when "IBG" then "Wbsofketa"
        when "PZN" then "Oxizacdfs"
        when "RSZ" then "Htebjnbwkt"
        when "QYI" then "Pcuqfmihf"
        when "WVT" then "Bknolwgw"
        when "BEP" then "Eexoqxbah"
        when "QEC" then "Rjpncbvw"
        when "XTH" then "Idrhnoc"
        when "HLJ" then "Tgbfmsu"
        when "XKS" then "Sfomgmmzbg"
        when "LHF" then "Zfpgmgtoy"
        when "POP" then "Vfpgrmncbw"
        when "LIT" then "Qfxiq"
        when "SUW" then "Idlbex"
        when "YLE" then "Xdakmo"
        when "MKI" then "Vbjmthpbg"
        when "QTE" then "Gjnnp"
        when "WEQ" then "Rikxovmegi"
        when "WOM" then "Mqlhdj"
        when "LTG" then "Baxups"
        when "ZYX" then "Vvcgrwl"
        when "DYL" then "Zuiczn"
        when "MPB" then "Mkjpwihf"
        when "MGP" then "Lvwhqc"
        when "KNZ" then "Psiwrj"
        when "AMD" then "Cmibmps"
        when "PXK" then "Cablkls"
        when "IVF" then "Pmtklaswgy"
        when "UBT" then "Ntncicoom"
        when "MBZ" then "Vqijpl"
        when "AET" then "Ihivhh"
        when "ARM" then "Hrpuy"
        when "CTR" then "Zkildakzwg"
        when "MVF" then "Ffktwp"
        when "SJL" then "Jlxvrphu"
        when "LKW" then "Qxeccd"
        when "WJD" then "Qyvpbftn"
        when "PBL" then "Mqxzwmi"
        when "UIL" then "Vkfkygsesn"
        when "WET" then "Izfegmtvjh"
        when "FAP" then "Wzeiwiniu"
        when "MMV" then "Bfwdbg"
        when "LXR" then "Mkarp"
        when "LCJ" then "Zujhmxtn"
        when "ESM" then "Wgrjzeofdr"
        when "IPN" then "Ekais"
        when "EIU" then "Ikhcpglr"
        when "RBE" then "Ayjvc"
        when "FKP" then "Zgnpbn"
        when "ZRM" then "Bgrtvtiig"
        when "JHZ" then "Sxbfafrd"
        when "CIL" then "Yrjcq"
        when "AGC" then "Ayqizhz"
        when "XPM" then "Zrvyzyd"
        when "PMW" then "Itaasehk"
        when "XLQ" then "Izluuoljic"
        when "UKT" then "Ikgxf"
        when "BXE" then "Jvgfldeel"
        when "FNA" then "Mqbmd"
        when "RYG" then "Fkcys"
        when "SKN" then "Hpnywfic"
        when "MKF" then "Qaexuvm"
        when "UBG" then "Tlowunqsd"
        when "XWX" then "Nvonmqhm"
        when "RSB" then "Bquoojsbt"
        when "KER" then "Kixtkgxp"
        when "MBE" then "Dhfuzedz"
        when "QII" then "Fbwki"
        when "ZLO" then "Rangpi"
        when "UHC" then "Rozyp"
        when "HCZ" then "Byrczezl"
        when "DKB" then "Hjdnftm"
        when "VTO" then "Ccugrukx"
        when "GRV" then "Makwkuiv"
        when "GWG" then "Yefwso"
        when "EID" then "Lttljga"
        when "WGX" then "Ljyngecuin"
        when "TNI" then "Eqddlqwn"
        when "PSD" then "Djcvuoh"
        when "PMG" then "Nthouclnkj"
        when "OVI" then "Vwavtha"
        when "LES" then "Mnikdys"
        when "RVD" then "Gczlalax"
        when "VWL" then "Vuepc"
        when "FOQ" then "Pvutbha"
        when "MNH" then "Rwdbcoumzu"
        when "GQS" then "Pleqmd"
        when "ZCA" then "Uwtzxi"
        when "ZXP" then "Noeal"
        when "LAD" then "Nrrrdyz"
        when "JQS" then "Cshev"
        when "QQJ" then "Lyhhsno"
        when "GSO" then "Rdoedz"
        when "QEE" then "Qfnttwdna"
        when "EZD" then "Xwmfjqtamd"
        when "JRU" then "Mnjcg"
        when "RDV" then "Kpguresq"
        when "DMU" then "Ixtihlc"
        when "ZPM" then "Unkodbj"
        when "QBF" then "Mrkmhvdwl"
        when "KLP" then "Qxqpxa"
        when "NSD" then "Wslhl"
        when "TWL" then "Gtysbkf"
        when "DQY" then "Bcgisiz"
        when "NUL" then "Cjsvdcmh"
        when "IKB" then "Eezjujb"
        when "PBM" then "Crekuwatv"
        when "GSR" then "Xpnkv"
        when "CFZ" then "Ovyem"
        when "OVN" then "Okxxc"
        when "DLV" then "Wdwdmjwur"
        when "GDN" then "Redeipn"
        when "NMG" then "Wppnwzmqyp"
        when "RXF" then "Kgalfulms"
        when "QVM" then "Ssolysep"
        when "MKC" then "Phuilxnsbi"
        when "CZI" then "Hwgntcrf"
        when "QOM" then "Dhfytdvj"
        when "EBW" then "Sfrpkpe"
        when "YLZ" then "Dhzeggr"
        when "TLD" then "Ygsflw"
        when "LDZ" then "Zjtxidhlaf"
        when "JIR" then "Ipciaj"
        when "IQE" then "Fretcrzx"
        when "RYV" then "Syuijbnylu"
        when "RHP" then "Vllxguqi"
        when "XLH" then "Rdsvx"
        when "JAD" then "Dgljlebvv"
        when "EAN" then "Evzqrcnqv"
        when "CQW" then "Tpgwdne"
        when "GCW" then "Arrcejik"
        when "WIE" then "Enzatpzsv"
        when "TTK" then "Cyqfbd"
        when "JJA" then "Befwtqsy"
        when "VZC" then "Lczgm"
        when "HNL" then "Hlmayhi"
        when "SLQ" then "Kqvlouhnfg"
        when "GIO" then "Hzkfhvut"
        when "ISA" then "Jhcjqk"
        when "XGV" then "Zhrcc"
        when "YQH" then "Gbnrelvl"
        when "CME" then "Zvzhkzgm"
        when "JRS" then "Cpabpbmcnf"
        when "CGF" then "Hkkeeezw"
        when "BGH" then "Wvhxvo"
        when "LXD" then "Ecfxlvb"
        when "JKF" then "Diqqrsoyz"
        when "ICC" then "Hacjyvqffk"
        when "SDJ" then "Ztoltpob"
        when "EPV" then "Oysmr"
        when "JFB" then "Mxgaah"
        when "ZPT" then "Coafkafjbk"
        when "TRL" then "Pitxkfless"
        when "NNR" then "Oikphvtvf"
        when "QRJ" then "Xkhrsm"
        when "WKJ" then "Duvalprdpx"
        when "ZQU" then "Vavpmips"
        when "USO" then "Ckpup"
        when "UEA" then "Robcizb"
        when "SMZ" then "Iguqd"
        when "LRB" then "Ppejk"
        when "VQQ" then "Gugwozj"
        when "EVH" then "Wizjzfdpjw"
        when "BZA" then "Vkpzutvmu"
        when "CVF" then "Ijmji"
        when "TWY" then "Wtuexxv"
        when "NNY" then "Zyasipup"
        when "MWL" then "Afpzh"
        when "UTY" then "Weqnk"
        when "IWF" then "Uivyd"
        when "KBA" then "Rstjoyb"
        when "DIG" then "Pcbdwrbpy"
        when "QHJ" then "Slhnkm"
        when "KBL" then "Qurngnh"
        when "PCD" then "Npvnyurz"
        when "QIS" then "Naqcgfybt"
        when "FRI" then "Sxkiyzubwb"
        when "BND" then "Gibrcaio"
        when "TOE" then "Pszxhmuh"
        when "TNB" then "Wsehb"
        when "PMA" then "Cxmxotdg"
        when "HXP" then "Kudkjahxq"
        when "GIB" then "Wiogl"
        when "NGO" then "Kgtanjty"
        when "OXP" then "Rovmvqzzmv"
        when "XHJ" then "Xttuvo"
        when "GUJ" then "Tycrsx"
        when "SWM" then "Nlyni"
        when "TMH" then "Jgxnbpsb"
        when "GUM" then "Swwyk"
        when "LSP" then "Iwvrnrf"
        when "EYY" then "Kzxqaiysk"
        when "PKF" then "Zpvpjznved"
        when "BOO" then "Rosajlnyb"
        when "AJR" then "Fwlgmwiels"
        when "QAR" then "Mvmezju"
        when "THG" then "Adcuza"
        when "GIA" then "Bwsavjkg"
        when "WLW" then "Kzgpwka"
        when "ZZS" then "Tqlhrht"
        when "KEU" then "Zonffsv"
        when "FPL" then "Wlgykhplb"
        when "PWV" then "Wxcyv"
        when "SAD" then "Bslyptr"
        when "MCZ" then "Nawtf"
        when "IBV" then "Wvkboy"
        when "HRA" then "Hlahjji"
        else raise ArgumentError, "unknown region #{code}"
        end
      end
    end
  end
end
