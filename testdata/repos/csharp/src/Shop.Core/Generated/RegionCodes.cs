// This file is generated from data/codes.csv by tools/gencodes; regenerate it, do not edit it by hand.

namespace Shop.Core.Generated
{
    public static class RegionCodes
    {
        public const int Count = 380;

        public static string NameOf(string code)
        {
            switch (code)
            {
                case "KEM": return "Bcrdlsbqgb";
                case "NNC": return "Crnbsd";
                case "HUU": return "Bssmbhbre";
                case "NER": return "Sjrvf";
                case "SSU": return "Ldrwcs";
                case "TGP": return "Rnykosoljh";
                case "FWY": return "Csjqpk";
                case "OJT": return "Dqnfy";
                case "EPN": return "Vcyrs";
                case "KKW": return "Tpszocc";
                case "IPW": return "Cbxwjusvoj";
                case "MVL": return "Olftd";
                case "BGY": return "Exhmmpc";
                case "OMR": return "Enriwnl";
                case "MHE": return "Fehvh";
                case "PSF": return "Jaenrlt";
                case "KEW": return "Tuvxboyvz";
                case "MMM": return "Dpumbgcg";
                case "FDK": return "Bdaserdlt";
                case "CGT": return "Euiltlpd";
                case "POP": return "Jcedxkxi";
                case "WFQ": return "Gqlew";
                case "AYQ": return "Ucwiqlf";
                case "YHR": return "Yqkuhtzzy";
                case "GZH": return "Xzhgqplx";
                case "AZI": return "Igwtlozx";
                case "LCH": return "Hpgkg";
                case "TTA": return "Ulzucvdm";
                case "WYG": return "Fnzukczx";
                case "OMX": return "Xffea";
                case "SOZ": return "Ettpvlerre";
                case "AZX": return "Dqxenggaig";
                case "QHY": return "Kirnebxlo";
                case "SQN": return "Ereqqaoyf";
                case "AYZ": return "Feptxd";
                case "BKV": return "Qrpzydrbh";
                case "IBY": return "Qoray";
                case "COK": return "Qtqgwioqr";
                case "PQH": return "Qirgoendmo";
                case "CVH": return "Cgvjzdye";
                case "WUV": return "Eieohxd";
                case "PFV": return "Fwnqmk";
                case "GLK": return "Xlakr";
                case "OWA": return "Kqtjqcdz";
                case "DCI": return "Byfiyen";
                case "VIM": return "Rqspwk";
                case "IBZ": return "Fnciauczic";
                case "HCI": return "Oakrn";
                case "ITE": return "Qwhdf";
                case "BFG": return "Ujqygjo";
                case "VFI": return "Zaibaax";
                case "RGQ": return "Hodvunvp";
                case "MQJ": return "Ghkgwxueml";
                case "EAC": return "Xinfbcvmqv";
                case "JTH": return "Jboffioail";
                case "KRK": return "Bjglfa";
                case "MCP": return "Qughqya";
                case "ICE": return "Sbmajjuh";
                case "SQY": return "Vwztmy";
                case "XPE": return "Xtuebwq";
                case "NXW": return "Eqyqszavs";
                case "WVW": return "Hcabeuldmo";
                case "BUA": return "Rvhpiaozcx";
                case "QRC": return "Qcxxpizcih";
                case "YGH": return "Uopmcpvjyb";
                case "UUG": return "Tekiu";
                case "WJT": return "Eapbpivdw";
                case "VPJ": return "Qjoooydrgj";
                case "PAJ": return "Cqoimggc";
                case "CEX": return "Iletuqidw";
                case "HPP": return "Afapvomj";
                case "ENL": return "Kdkakykm";
                case "GWA": return "Jilcmmscln";
                case "IBI": return "Bvjue";
                case "INQ": return "Gylznaz";
                case "UMR": return "Gxcbxnoty";
                case "UJP": return "Refpn";
                case "JJI": return "Xuimuhjprv";
                case "DFU": return "Cgqzpr";
                case "OKY": return "Nerghcfk";
                case "CKH": return "Izsgaxn";
                case "NXQ": return "Mikybp";
                case "SLE": return "Qquzgcihmm";
                case "ONJ": return "Ebnwy";
                case "ZPS": return "Acmqoohz";
                case "HEE": return "Vdxwuyocr";
                case "BAZ": return "Hsbuwj";
                case "EUI": return "Unwyddcjq";
                case "SGM": return "Hztaarj";
                case "IKU": return "Pqhrha";
                case "NWU": return "Bagpvun";
                case "IHV": return "Lhpbwkwn";
                case "VMG": return "Zjxqc";
                case "PGJ": return "Hohiyj";
                case "TPT": return "Hpnvbt";
                case "MBG": return "Tenbw";
                case "FMO": return "Kxdcfkgfuq";
                case "OBJ": return "Xmlkofdaci";
                case "LND": return "Ygmlyjznc";
                case "WPG": return "Rogklxp";
                case "UNH": return "Ymbmboczbi";
                case "XCT": return "Liktbix";
                case "WKI": return "Axytzuc";
                case "HDP": return "Oymzinpepf";
                case "ZXJ": return "Yethkkolzz";
                case "CQG": return "Yfhncubp";
                case "RKF": return "Dcitcgdn";
                case "WOF": return "Enotvh";
                case "RYV": return "Yjjis";
                case "LIX": return "Gohfhhe";
                case "SGK": return "Mihqq";
                case "UZD": return "Obdapholbj";
                case "DBG": return "Sgclqfoti";
                case "YVA": return "Utwtl";
                case "BLK": return "Bgibtx";
                case "GAK": return "Vlftjcgb";
                case "PRP": return "Ndzmv";
                case "EUR": return "Ufmwi";
                case "JVJ": return "Bjxslnna";
                case "YZL": return "Gmxmganfnd";
                case "CMS": return "Oyfeabr";
                case "UZM": return "Stlxq";
                case "ELJ": return "Qfcdmp";
                case "ZZZ": return "Jebpkb";
                case "UMC": return "Twfuzhtmtg";
                case "PFS": return "Bmqfml";
                case "EHX": return "Bryvbv";
                case "KDM": return "Oruyjunjs";
                case "NMV": return "Oqofaat";
                case "OHO": return "Yofzpmdce";
                case "NLC": return "Qqvbbuec";
                case "XKY": return "Qcbyqmuzea";
                case "CTX": return "Dgepjzzfvz";
                case "HCL": return "Yifktioei";
                case "PGS": return "Tqhklbg";
                case "MFU": return "Vkmfzzi";
                case "YQB": return "Lorqswdiru";
                case "MXZ": return "Imlselk";
                case "COH": return "Txbjqi";
                case "USV": return "Xaxbhej";
                case "UNN": return "Lbephtuba";
                case "ASL": return "Dqlrhns";
                case "SEG": return "Tpfeazh";
                case "EOD": return "Uevzi";
                case "ZIA": return "Urltu";
                case "OTQ": return "Phfabbramf";
                case "FBY": return "Atrvg";
                case "NGQ": return "Uquuntfqj";
                case "JUB": return "Zpwramnxoc";
                case "UOF": return "Dihubd";
                case "XWI": return "Biurvnvzqi";
                case "UGC": return "Afihxgfxk";
                case "MKT": return "Muwvrp";
                case "QWA": return "Nxhsj";
                case "GMT": return "Csfebaddt";
                case "FLE": return "Aabewuubwc";
                case "BCS": return "Grvcywm";
                case "HGG": return "Bbzyu";
                case "YUU": return "Pdedzyu";
                case "JKK": return "Ialijbwy";
                case "KYT": return "Pjtxaznan";
                case "YDL": return "Wbrsgwcs";
                case "JFN": return "Qgjyy";
                case "ALP": return "Pwzfp";
                case "LQI": return "Fjgwhpfdu";
                case "CPZ": return "Rzdukldmmx";
                case "NUA": return "Gjinrqf";
                case "UHO": return "Rtywyt";
                case "BLS": return "Qeovrxk";
                case "OOW": return "Shekouw";
                case "QGI": return "Ywtexeh";
                case "KTQ": return "Fhkgixd";
                case "VDG": return "Eezjxjni";
                case "DUD": return "Gmobamz";
                case "WHQ": return "Joaeitxmax";
                case "NWS": return "Xunhvxuyu";
                case "SHV": return "Udonki";
                case "WDN": return "Zmwwuf";
                case "NPO": return "Tnqvv";
                case "FUK": return "Mpdbi";
                case "GFW": return "Qldsor";
                case "WPQ": return "Uzlqk";
                case "XOG": return "Fmqydxtlub";
                case "IMM": return "Acnnu";
                case "VLS": return "Dhjxmqh";
                case "MOG": return "Eyczzu";
                case "PUR": return "Helvuznojy";
                case "UEY": return "Lzhiwmvi";
                case "VFP": return "Zxzil";
                case "UJK": return "Pntucvle";
                case "JMB": return "Skzeq";
                case "LUS": return "Vagcu";
                case "ITD": return "Ehfyolzeg";
                case "MZR": return "Twtzcv";
                case "RZU": return "Gpwgqcx";
                case "OVD": return "Dinhepprb";
                case "OEW": return "Hpfrtxaf";
                case "KOW": return "Pvjolnnvc";
                case "ULU": return "Aatbvxkzdq";
                case "PYE": return "Gwnue";
                case "DVL": return "Pyqrygj";
                case "KNI": return "Bjjlpmkqi";
                case "QLG": return "Pzdkgkwjes";
                case "UCZ": return "Mxrmr";
                case "BMJ": return "Abgpt";
                case "VBZ": return "Rtmteuvww";
                case "VCG": return "Vuouy";
                case "DVF": return "Nydua";
                case "EZJ": return "Wijfnbkan";
                case "USB": return "Sqbdyzns";
                case "MOC": return "Vmtsv";
                case "PYN": return "Dcupgeuan";
                case "AVV": return "Cgdep";
                case "IXS": return "Oxxfbl";
                case "XWW": return "Xycjur";
                case "POV": return "Bwbabau";
                case "TCM": return "Jxtfptb";
                case "LSX": return "Pvfezdlu";
                case "UZN": return "Myzoizys";
                case "JIB": return "Uwztktxae";
                case "JSN": return "Mmvmty";
                case "HZO": return "Wakiinf";
                case "YZB": return "Ezseizz";
                case "VYP": return "Rcrrpzm";
                case "ZYX": return "Jtbvmo";
                case "GIS": return "Zmorc";
                case "ZLY": return "Hmsqi";
                case "QKP": return "Sggggcfzw";
                case "LSS": return "Myqehbp";
                case "DLU": return "Zcektali";
                case "TAD": return "Gspss";
                case "IYI": return "Doysteib";
                case "GFM": return "Abbrl";
                case "WOP": return "Tumdw";
                case "CIK": return "Hucvqmfof";
                case "HXH": return "Bilbra";
                case "BIZ": return "Wxuypbdek";
                case "AGV": return "Jssoyudpkl";
                case "MDL": return "Mfohzeva";
                case "WGZ": return "Fhctl";
                case "XEY": return "Dmaucokk";
                case "HPD": return "Lekhxbfwor";
                case "EOE": return "Nnheais";
                case "JKZ": return "Ipdkop";
                case "EQB": return "Zvgrpjdiyg";
                case "LNI": return "Hdmjnf";
                case "XJE": return "Aozqkqeoaz";
                case "QJF": return "Nbngisf";
                case "FQY": return "Wfgtcc";
                case "TXP": return "Fgetvwu";
                case "GSJ": return "Acwxqn";
                case "XBQ": return "Kjupcan";
                case "YPE": return "Ihfslbfwls";
                case "ALQ": return "Qcdlwhky";
                case "MSY": return "Jdxpo";
                case "AQZ": return "Eahchtffd";
                case "IRA": return "Dwxgi";
                case "TUS": return "Qhwodldw";
                case "BID": return "Psqyiddd";
                case "ERS": return "Hevsox";
                case "FAU": return "Wnttqbmb";
                case "LKM": return "Kwnszk";
                case "MRB": return "Qevlhnv";
                case "ALD": return "Fckngqvah";
                case "NMY": return "Ubzbbuti";
                case "VTI": return "Rzbtdidqan";
                case "BJD": return "Lufdbtq";
                case "ICO": return "Reodqejns";
                case "IHX": return "Xrjot";
                case "SHU": return "Grwlorjt";
                case "PJA": return "Khgqrm";
                case "SMA": return "Fhkrkpi";
                case "GJB": return "Frctl";
                case "VBQ": return "Olxydqhv";
                case "ENK": return "Levgttiqdx";
                case "XYP": return "Zuwuwen";
                case "DAN": return "Sdpmsenzi";
                case "TTD": return "Owojxljl";
                case "QRT": return "Ukazxpmo";
                case "FRJ": return "Nsmshc";
                case "KKT": return "Kgnaab";
                case "SPJ": return "Yjrtnqqxv";
                case "MOL": return "Tvloa";
                case "CQH": return "Nlqmu";
                case "NPM": return "Ytskwqxc";
                case "LKL": return "Jqfdu";
                case "JWK": return "Nufqjqgqg";
                case "FBU": return "Tdlsuuxbw";
                case "AZA": return "Wwrajmd";
                case "AVA": return "Fpyrsi";
                case "URQ": return "Sgntde";
                case "QYQ": return "Adcfq";
                case "OTN": return "Uavys";
                case "EWH": return "Ifbiuds";
                case "LGO": return "Mabhmsybo";
                case "THH": return "Bfsfka";
                case "OJN": return "Ipchvmvws";
                case "NJM": return "Pazhcfflmf";
                case "JMR": return "Dkrmkmu";
                case "DNL": return "Hmgojlhnb";
                case "VAK": return "Hwecgi";
                case "ZER": return "Ozzhfllg";
                case "MMU": return "Gjpqghove";
                case "WIT": return "Slrhmtqg";
                case "YDV": return "Crixyymav";
                case "SEJ": return "Mwcwf";
                case "HKG": return "Dcrlzqyjgc";
                case "JCH": return "Ewmjlmo";
                case "UUE": return "Falvzvw";
                case "NAV": return "Wohmludfjd";
                case "TXH": return "Vbmbtfngyj";
                case "MXB": return "Juufshspw";
                case "INV": return "Sladyyujbs";
                case "WBH": return "Dbzkgylxcn";
                case "XMX": return "Hiqclnokw";
                case "XWU": return "Oqbvwgnvqy";
                case "PYG": return "Wzrif";
                case "FYU": return "Rihbfl";
                case "NCG": return "Jeevwpvphw";
                case "AQW": return "Eulwjewe";
                case "SHK": return "Drnyfvveto";
                case "YMG": return "Wjalp";
                case "BBI": return "Gdwjodf";
                case "OOS": return "Jfrcbao";
                case "PCX": return "Kxsidupnpg";
                case "RKA": return "Cujutxu";
                case "IUH": return "Exaay";
                case "EJL": return "Uqvfdz";
                case "JXT": return "Mfulkhl";
                case "RLI": return "Bbdszu";
                case "WMB": return "Pnpxfj";
                case "SUC": return "Whfeou";
                case "MCB": return "Pggxlabt";
                case "ZQN": return "Jcvbqw";
                case "KCO": return "Vfxfm";
                case "AOZ": return "Vlsgpcrkq";
                case "NRU": return "Mttczz";
                case "XVK": return "Vjssnlpvu";
                case "JKQ": return "Aghvxowcev";
                case "LRS": return "Lqhsomid";
                case "FGR": return "Dhiudgqviw";
                case "HRO": return "Rswdxq";
                case "SSC": return "Vczoeqrq";
                case "YDU": return "Qdovmrfgsp";
                case "CEL": return "Bmhblbawt";
                case "GOJ": return "Wenct";
                case "GSD": return "Lflxkzyxva";
                case "IDH": return "Qxqlxpb";
                case "TLD": return "Rkztdbv";
                case "ILG": return "Oasodzapdc";
                case "IFE": return "Jvvmesirw";
                case "ZIO": return "Akepq";
                case "BZB": return "Ftuvt";
                case "PFW": return "Mhtqclkq";
                case "JES": return "Bgflxokso";
                case "LKA": return "Spkhaho";
                case "TBU": return "Xveimi";
                case "QIL": return "Sqsewbryd";
                case "GYN": return "Sudlzjzzhz";
                case "EVC": return "Ykxlquh";
                case "RWM": return "Bwkvkzp";
                case "LHZ": return "Leegav";
                case "MOM": return "Yjfscejxj";
                case "XSR": return "Kcgscsfjsl";
                case "LYW": return "Xcpkfiir";
                case "YFU": return "Hwagbmo";
                case "TJQ": return "Dghxbetbcc";
                case "SKX": return "Agirua";
                case "KAG": return "Kxaupmt";
                case "ZKF": return "Nzbcu";
                case "KYP": return "Mioaaksuk";
                case "NTW": return "Kfcaegeqyc";
                case "LNL": return "Vsrevtskh";
                case "TIW": return "Ybyujuyr";
                case "ORI": return "Qqieiar";
                case "DUZ": return "Euhmyca";
                case "EDB": return "Qgryfitlx";
                case "FXY": return "Qalywh";
                case "PGU": return "Zmogkza";
                case "VXA": return "Zumvl";
                default: throw new System.ArgumentException("unknown region " + code);
            }
        }

        public static readonly (string Code, int Number)[] Numbers = new (string, int)[]
        {
            ("KEM", 89),
            ("NNC", 971),
            ("HUU", 297),
            ("NER", 106),
            ("SSU", 62),
            ("TGP", 814),
            ("FWY", 747),
            ("OJT", 351),
            ("EPN", 809),
            ("KKW", 968),
            ("IPW", 734),
            ("MVL", 506),
            ("BGY", 171),
            ("OMR", 700),
            ("MHE", 13),
            ("PSF", 580),
            ("KEW", 573),
            ("MMM", 452),
            ("FDK", 27),
            ("CGT", 119),
            ("POP", 491),
            ("WFQ", 557),
            ("AYQ", 365),
            ("YHR", 874),
            ("GZH", 30),
            ("AZI", 358),
            ("LCH", 495),
            ("TTA", 802),
            ("WYG", 406),
            ("OMX", 155),
            ("SOZ", 22),
            ("AZX", 300),
            ("QHY", 679),
            ("SQN", 624),
            ("AYZ", 570),
            ("BKV", 196),
            ("IBY", 916),
            ("COK", 827),
            ("PQH", 324),
            ("CVH", 963),
            ("WUV", 408),
            ("PFV", 432),
            ("GLK", 470),
            ("OWA", 235),
            ("DCI", 870),
            ("VIM", 92),
            ("IBZ", 623),
            ("HCI", 949),
            ("ITE", 269),
            ("BFG", 513),
            ("VFI", 518),
            ("RGQ", 560),
            ("MQJ", 56),
            ("EAC", 995),
            ("JTH", 985),
            ("KRK", 344),
            ("MCP", 94),
            ("ICE", 87),
            ("SQY", 334),
            ("XPE", 643),
            ("NXW", 818),
            ("WVW", 572),
            ("BUA", 955),
            ("QRC", 747),
            ("YGH", 632),
            ("UUG", 762),
            ("WJT", 223),
            ("VPJ", 88),
            ("PAJ", 596),
            ("CEX", 374),
            ("HPP", 745),
            ("ENL", 123),
            ("GWA", 774),
            ("IBI", 256),
            ("INQ", 780),
            ("UMR", 142),
            ("UJP", 352),
            ("JJI", 404),
            ("DFU", 226),
            ("OKY", 570),
            ("CKH", 393),
            ("NXQ", 285),
            ("SLE", 662),
            ("ONJ", 918),
            ("ZPS", 112),
            ("HEE", 796),
            ("BAZ", 986),
            ("EUI", 967),
            ("SGM", 472),
            ("IKU", 984),
            ("NWU", 84),
            ("IHV", 372),
            ("VMG", 211),
            ("PGJ", 112),
            ("TPT", 150),
            ("MBG", 62),
            ("FMO", 765),
            ("OBJ", 83),
            ("LND", 51),
            ("WPG", 32),
            ("UNH", 200),
            ("XCT", 734),
            ("WKI", 25),
            ("HDP", 9),
            ("ZXJ", 611),
            ("CQG", 566),
            ("RKF", 511),
            ("WOF", 766),
            ("RYV", 275),
            ("LIX", 289),
            ("SGK", 237),
            ("UZD", 239),
            ("DBG", 794),
            ("YVA", 223),
            ("BLK", 668),
            ("GAK", 815),
            ("PRP", 564),
            ("EUR", 420),
            ("JVJ", 885),
            ("YZL", 841),
            ("CMS", 146),
            ("UZM", 176),
            ("ELJ", 772),
            ("ZZZ", 623),
            ("UMC", 850),
            ("PFS", 127),
            ("EHX", 859),
            ("KDM", 256),
            ("NMV", 502),
            ("OHO", 368),
            ("NLC", 945),
            ("XKY", 878),
            ("CTX", 739),
            ("HCL", 515),
            ("PGS", 187),
            ("MFU", 118),
            ("YQB", 878),
            ("MXZ", 783),
            ("COH", 318),
            ("USV", 631),
            ("UNN", 56),
            ("ASL", 309),
            ("SEG", 725),
            ("EOD", 412),
            ("ZIA", 593),
            ("OTQ", 244),
            ("FBY", 146),
            ("NGQ", 66),
            ("JUB", 760),
            ("UOF", 344),
            ("XWI", 303),
            ("UGC", 197),
            ("MKT", 484),
            ("QWA", 809),
            ("GMT", 952),
            ("FLE", 755),
            ("BCS", 110),
            ("HGG", 90),
            ("YUU", 210),
            ("JKK", 377),
            ("KYT", 532),
            ("YDL", 840),
            ("JFN", 56),
            ("ALP", 607),
            ("LQI", 786),
            ("CPZ", 89),
            ("NUA", 389),
            ("UHO", 662),
            ("BLS", 174),
            ("OOW", 244),
            ("QGI", 741),
            ("KTQ", 169),
            ("VDG", 201),
            ("DUD", 448),
            ("WHQ", 249),
            ("NWS", 717),
            ("SHV", 644),
            ("WDN", 257),
            ("NPO", 953),
            ("FUK", 557),
            ("GFW", 210),
            ("WPQ", 421),
            ("XOG", 259),
            ("IMM", 716),
            ("VLS", 821),
            ("MOG", 198),
            ("PUR", 562),
            ("UEY", 437),
            ("VFP", 251),
            ("UJK", 952),
            ("JMB", 852),
            ("LUS", 301),
            ("ITD", 926),
            ("MZR", 924),
            ("RZU", 860),
            ("OVD", 496),
            ("OEW", 861),
            ("KOW", 185),
            ("ULU", 496),
            ("PYE", 347),
            ("DVL", 446),
            ("KNI", 894),
            ("QLG", 997),
            ("UCZ", 588),
            ("BMJ", 785),
            ("VBZ", 611),
            ("VCG", 179),
            ("DVF", 378),
            ("EZJ", 580),
            ("USB", 713),
            ("MOC", 160),
            ("PYN", 5),
            ("AVV", 19),
            ("IXS", 793),
            ("XWW", 727),
            ("POV", 704),
            ("TCM", 324),
            ("LSX", 168),
            ("UZN", 342),
            ("JIB", 616),
            ("JSN", 918),
            ("HZO", 601),
            ("YZB", 561),
            ("VYP", 206),
            ("ZYX", 726),
            ("GIS", 550),
            ("ZLY", 907),
            ("QKP", 297),
            ("LSS", 384),
            ("DLU", 532),
            ("TAD", 219),
            ("IYI", 347),
            ("GFM", 892),
            ("WOP", 983),
            ("CIK", 380),
            ("HXH", 858),
            ("BIZ", 774),
            ("AGV", 264),
            ("MDL", 480),
            ("WGZ", 911),
            ("XEY", 843),
            ("HPD", 911),
            ("EOE", 860),
            ("JKZ", 117),
            ("EQB", 994),
            ("LNI", 59),
            ("XJE", 853),
            ("QJF", 142),
            ("FQY", 911),
            ("TXP", 832),
            ("GSJ", 862),
            ("XBQ", 933),
            ("YPE", 610),
            ("ALQ", 729),
            ("MSY", 526),
            ("AQZ", 320),
            ("IRA", 19),
            ("TUS", 184),
            ("BID", 416),
            ("ERS", 407),
            ("FAU", 796),
            ("LKM", 835),
            ("MRB", 648),
            ("ALD", 143),
            ("NMY", 940),
            ("VTI", 243),
            ("BJD", 924),
            ("ICO", 296),
            ("IHX", 712),
            ("SHU", 490),
            ("PJA", 993),
            ("SMA", 292),
            ("GJB", 451),
            ("VBQ", 757),
            ("ENK", 877),
            ("XYP", 892),
            ("DAN", 894),
            ("TTD", 401),
            ("QRT", 308),
            ("FRJ", 842),
            ("KKT", 263),
            ("SPJ", 441),
            ("MOL", 693),
            ("CQH", 575),
            ("NPM", 175),
            ("LKL", 916),
            ("JWK", 423),
            ("FBU", 422),
            ("AZA", 601),
            ("AVA", 893),
            ("URQ", 161),
            ("QYQ", 503),
            ("OTN", 331),
            ("EWH", 65),
            ("LGO", 56),
            ("THH", 921),
            ("OJN", 227),
            ("NJM", 8),
            ("JMR", 68),
            ("DNL", 286),
            ("VAK", 558),
            ("ZER", 740),
            ("MMU", 965),
            ("WIT", 129),
            ("YDV", 736),
            ("SEJ", 795),
            ("HKG", 736),
            ("JCH", 794),
            ("UUE", 360),
            ("NAV", 278),
            ("TXH", 160),
            ("MXB", 534),
            ("INV", 622),
            ("WBH", 712),
            ("XMX", 516),
            ("XWU", 131),
            ("PYG", 560),
            ("FYU", 356),
            ("NCG", 248),
            ("AQW", 602),
            ("SHK", 860),
            ("YMG", 212),
            ("BBI", 333),
            ("OOS", 769),
            ("PCX", 803),
            ("RKA", 717),
            ("IUH", 405),
            ("EJL", 737),
            ("JXT", 140),
            ("RLI", 944),
            ("WMB", 618),
            ("SUC", 994),
            ("MCB", 876),
            ("ZQN", 432),
            ("KCO", 303),
            ("AOZ", 472),
            ("NRU", 62),
            ("XVK", 141),
            ("JKQ", 593),
            ("LRS", 233),
            ("FGR", 502),
            ("HRO", 932),
            ("SSC", 732),
            ("YDU", 794),
            ("CEL", 979),
            ("GOJ", 894),
            ("GSD", 846),
            ("IDH", 837),
            ("TLD", 249),
            ("ILG", 820),
            ("IFE", 780),
            ("ZIO", 496),
            ("BZB", 402),
            ("PFW", 222),
            ("JES", 398),
            ("LKA", 898),
            ("TBU", 66),
            ("QIL", 894),
            ("GYN", 962),
            ("EVC", 359),
            ("RWM", 516),
            ("LHZ", 465),
            ("MOM", 259),
            ("XSR", 480),
            ("LYW", 24),
            ("YFU", 206),
            ("TJQ", 829),
            ("SKX", 656),
            ("KAG", 696),
            ("ZKF", 628),
            ("KYP", 58),
            ("NTW", 367),
            ("LNL", 759),
            ("TIW", 724),
            ("ORI", 488),
            ("DUZ", 640),
            ("EDB", 153),
            ("FXY", 453),
            ("PGU", 111),
            ("VXA", 62),
        };
    }
}
