# This file is generated from data/codes.csv by bin/gencodes; regenerate it, do not edit it by hand.

REGION_CODES=(
  QNZ
  VID
  QZK
  WRR
  QPU
  SBY
  RGH
  RRR
  KDS
  XIP
  TSQ
  VDG
  KBF
  CRC
  BXP
  OYG
  XSS
  LFY
  QDQ
  FOO
  IFA
  VWA
  GYD
  AMZ
  GRI
  QYK
  XJK
  ODI
  PLE
  CNO
  FSR
  FWE
  YQZ
  LAU
  QMH
  OKE
  QUE
  GGR
  UGK
  VUP
  YNG
  YUM
  QZE
  MHV
  GFP
  DFP
  IEB
  TUI
  UAW
  LPG
  PLH
  MDT
  UGR
  EPH
  ANC
  XOY
  JTD
  SVG
  ZBP
  QXM
  KZG
  NTB
  WLN
  URY
  ZLS
  EAE
  MMV
  KEP
  OPC
  IQX
  IXF
  LYK
  TAP
  NKQ
  YSZ
  FXK
  UWN
  RJU
  KEK
  CLS
  LFP
  NAZ
  CNS
  KOE
  ZVA
  BPJ
  IQL
  BMU
  SRB
  WSX
  ZCT
  GQA
  SIU
  BSW
  CBG
  ACN
  KPM
  AIK
  WXD
  VEQ
  NNK
  FGT
  KQY
  IUF
  LHF
  VGD
  BHE
  UCY
  WPN
  BSC
  LLI
  FAV
  YBN
  AUA
  ABP
  XVK
  UZR
  OPM
  MFW
  FQA
  LYB
  SPJ
  SSQ
  HZP
  RRM
  GXC
  RYW
  ZJD
  QKE
  EKQ
  TYV
  IWM
  HGU
  GYI
  NEU
  VLV
  OVB
  HQK
  YAN
  CZZ
  VGQ
  SWE
  PDV
  LNY
  RII
  DBZ
  OAV
  VSZ
  KMF
  WZI
  NCG
  STJ
  MBP
  ALU
  NPN
  ZCJ
  QLL
  OAJ
  BRP
  JJX
  DFC
  BBN
  TJH
  RXG
  UTI
  QNC
  XDY
  FEO
  HOH
  VNV
  HMW
  RRQ
  ZYF
  AQM
  HRE
  AYQ
  TEQ
  XNJ
  JOV
  BES
  YOY
  WBZ
  ELU
  XFV
  KGU
  MXT
  AUH
  NGI
  LIA
  PQA
  NMA
  GWT
  GYX
  IPT
  QMP
  CVK
  QXV
  FCU
  ZHZ
  UMP
  GVB
  IBS
  ZFN
  UNG
  WTI
  RVB
  XCB
  AYL
  XGR
  PPX
  ZHW
  MZJ
  EPK
  ONB
  EBT
  SDQ
  VXI
  XMF
  NFF
  PXJ
  GXM
  VKJ
  WTG
  YFX
  GDX
  STH
  CPH
  HBJ
  FUU
  CUB
  MYJ
  DJS
  YZC
  JBB
  ILG
  ZAQ
  QLW
  XDI
  RST
  OUE
  GRA
  DIR
  PFM
  BBX
  INT
  QJM
  JRN
  QLG
  WIG
  LGM
  ZCH
  WJN
  VZK
  LTU
  IIP
  DSR
  UFV
  DSC
  RQU
  URL
  NPM
  ZGO
  SXC
  VQW
  RXB
  QGF
  GGB
  NET
  DDA
  VMQ
  QLK
  GET
  IKM
  NYH
  AZC
  TOX
  CXN
  OZK
  QCN
  LMB
  FQP
  ZQO
  EJP
  CQO
  YQG
  XYO
  IPI
  MCM
  CKW
  NQO
  DDZ
  YCN
  VGZ
  VRC
  UQV
  WZG
  XHX
  GTH
  HSW
  REU
  YLF
  KIK
  EIS
  XSV
  GFN
  RUN
  OBE
  GPT
  QYZ
  LAX
  RLT
  WCF
  NLI
  OTE
  ERH
  RJB
  PRZ
  NCX
  ZFY
  NOS
  HRW
  WBR
  GXV
  ZDQ
  GNU
  RJT
  QMC
  JMR
  TBI
  YJZ
  QXI
  DRQ
  UZZ
  STY
  WVT
  LEW
  GOR
  OOA
  USC
  TQG
)

# Prints the name of a region code.
region_name() {
  case "$1" in
    QNZ) echo "Ljfywwr" ;;
    VID) echo "Hmxni" ;;
    QZK) echo "Vxmerbezge" ;;
    WRR) echo "Gkrdwucjnc" ;;
    QPU) echo "Evznqkanl" ;;
    SBY) echo "Lbplsyamhd" ;;
    RGH) echo "Lbiczigxt" ;;
    RRR) echo "Ivjlkf" ;;
    KDS) echo "Zikabylao" ;;
    XIP) echo "Bxgjicxwpa" ;;
    TSQ) echo "Empxsmfgie" ;;
    VDG) echo "Rjzkz" ;;
    KBF) echo "Cwyjivmp" ;;
    CRC) echo "Uhhrisfzj" ;;
    BXP) echo "Mphrnquoc" ;;
    OYG) echo "Pkglta" ;;
    XSS) echo "Nbksfrhtk" ;;
    LFY) echo "Jnlosc" ;;
    QDQ) echo "Gswry" ;;
    FOO) echo "Qerrpoaj" ;;
    IFA) echo "Kykgbidq" ;;
    VWA) echo "Dpwjt" ;;
    GYD) echo "Oryhu" ;;
    AMZ) echo "Nbxrb" ;;
    GRI) echo "Llrsnma" ;;
    QYK) echo "Yxzbu" ;;
    XJK) echo "Dkerhpj" ;;
    ODI) echo "Cvnjvg" ;;
    PLE) echo "Qzsezj" ;;
    CNO) echo "Myqtyevre" ;;
    FSR) echo "Pzjncth" ;;
    FWE) echo "Nrkryo" ;;
    YQZ) echo "Jhpiqg" ;;
    LAU) echo "Kpcnc" ;;
    QMH) echo "Cjcjky" ;;
    OKE) echo "Xijmks" ;;
    QUE) echo "Dyuuyzih" ;;
    GGR) echo "Xnmicjm" ;;
    UGK) echo "Bssbl" ;;
    VUP) echo "Ntiwjoyf" ;;
    YNG) echo "Glxwgh" ;;
    YUM) echo "Ovglx" ;;
    QZE) echo "Pxoucehny" ;;
    MHV) echo "Mpkwzhkm" ;;
    GFP) echo "Pdnup" ;;
    DFP) echo "Ipegf" ;;
    IEB) echo "Jobcj" ;;
    TUI) echo "Jumqizsby" ;;
    UAW) echo "Jrtcwbijt" ;;
    LPG) echo "Dbllpokzy" ;;
    PLH) echo "Tzzdl" ;;
    MDT) echo "Cbwmdvxoe" ;;
    UGR) echo "Bviasdyd" ;;
    EPH) echo "Zujjtkr" ;;
    ANC) echo "Auodkryk" ;;
    XOY) echo "Pcruo" ;;
    JTD) echo "Sveycvkvbe" ;;
    SVG) echo "Xnzcdym" ;;
    ZBP) echo "Nnzyvishs" ;;
    QXM) echo "Eyxhkhvkp" ;;
    KZG) echo "Dgyqogonl" ;;
    NTB) echo "Dhaibi" ;;
    WLN) echo "Wbrrqyaa" ;;
    URY) echo "Wskzzvf" ;;
    ZLS) echo "Vkthisood" ;;
    EAE) echo "Qewosaaf" ;;
    MMV) echo "Mdiggewato" ;;
    KEP) echo "Nwliwx" ;;
    OPC) echo "Dhphjd" ;;
    IQX) echo "Ikoiqmaoz" ;;
    IXF) echo "Ggdbldwbg" ;;
    LYK) echo "Gqffst" ;;
    TAP) echo "Wyuon" ;;
    NKQ) echo "Osbacctfj" ;;
    YSZ) echo "Ubejfzkx" ;;
    FXK) echo "Phsojux" ;;
    UWN) echo "Fstnjo" ;;
    RJU) echo "Wyzqx" ;;
    KEK) echo "Axjzd" ;;
    CLS) echo "Qgczy" ;;
    LFP) echo "Pkeopgthz" ;;
    NAZ) echo "Zrgyqu" ;;
    CNS) echo "Pisjrf" ;;
    KOE) echo "Kyiicxpiom" ;;
    ZVA) echo "Yfnvkagux" ;;
    BPJ) echo "Tzuul" ;;
    IQL) echo "Jwhbhapcyn" ;;
    BMU) echo "Lthytuiiqj" ;;
    SRB) echo "Iuzla" ;;
    WSX) echo "Revobk" ;;
    ZCT) echo "Lbgjqzirx" ;;
    GQA) echo "Ndiyxvx" ;;
    SIU) echo "Qrmrsgtej" ;;
    BSW) echo "Otujdf" ;;
    CBG) echo "Zhlqjp" ;;
    ACN) echo "Oswwvfduy" ;;
    KPM) echo "Qaqnogtzad" ;;
    AIK) echo "Zgfvzstgm" ;;
    WXD) echo "Vggielr" ;;
    VEQ) echo "Ccupjur" ;;
    NNK) echo "Gqwhhjimj" ;;
    FGT) echo "Urkhiyag" ;;
    KQY) echo "Vjolmqm" ;;
    IUF) echo "Btissn" ;;
    LHF) echo "Rzpbhfg" ;;
    VGD) echo "Qnkwv" ;;
    BHE) echo "Eliaglnsw" ;;
    UCY) echo "Ikcnllhgke" ;;
    WPN) echo "Bfnvb" ;;
    BSC) echo "Qznwfst" ;;
    LLI) echo "Anpqu" ;;
    FAV) echo "Hetcfuq" ;;
    YBN) echo "Zthbkcha" ;;
    AUA) echo "Esckugkrx" ;;
    ABP) echo "Efeynycqb" ;;
    XVK) echo "Kgispy" ;;
    UZR) echo "Ugrwghoeen" ;;
    OPM) echo "Vwydu" ;;
    MFW) echo "Tvyijdvbgw" ;;
    FQA) echo "Fzfeyzfl" ;;
    LYB) echo "Muxibui" ;;
    SPJ) echo "Fqwwhqczb" ;;
    SSQ) echo "Lupnnfb" ;;
    HZP) echo "Pibcj" ;;
    RRM) echo "Ujbdro" ;;
    GXC) echo "Qnikallpu" ;;
    RYW) echo "Zjnmt" ;;
    ZJD) echo "Ixqhhm" ;;
    QKE) echo "Kcckfv" ;;
    EKQ) echo "Ntvgugm" ;;
    TYV) echo "Mapor" ;;
    IWM) echo "Eymjpkbj" ;;
    HGU) echo "Rszbcnnnir" ;;
    GYI) echo "Hngrhtqs" ;;
    NEU) echo "Gfvogbp" ;;
    VLV) echo "Jujskg" ;;
    OVB) echo "Smoyje" ;;
    HQK) echo "Ngaivmyj" ;;
    YAN) echo "Jhulzg" ;;
    CZZ) echo "Isvojxywv" ;;
    VGQ) echo "Naujdkda" ;;
    SWE) echo "Choljspp" ;;
    PDV) echo "Fbccz" ;;
    LNY) echo "Csmiojtt" ;;
    RII) echo "Dvljnnik" ;;
    DBZ) echo "Jqqaeooran" ;;
    OAV) echo "Qhhkri" ;;
    VSZ) echo "Syqhpnk" ;;
    KMF) echo "Awrbnpt" ;;
    WZI) echo "Ovhmikc" ;;
    NCG) echo "Rhgitqn" ;;
    STJ) echo "Yxqhx" ;;
    MBP) echo "Qwvdm" ;;
    ALU) echo "Sfahuyja" ;;
    NPN) echo "Xubpsnvpx" ;;
    ZCJ) echo "Vhanev" ;;
    QLL) echo "Nstynjbbvt" ;;
    OAJ) echo "Hdchad" ;;
    BRP) echo "Azmzinzf" ;;
    JJX) echo "Crsgc" ;;
    DFC) echo "Fgnmmkya" ;;
    BBN) echo "Vvtucrslz" ;;
    TJH) echo "Fgwpmcpxqw" ;;
    RXG) echo "Cpzeelhd" ;;
    UTI) echo "Vyrbvbp" ;;
    QNC) echo "Jkvomf" ;;
    XDY) echo "Zazsuohsd" ;;
    FEO) echo "Whitpuetck" ;;
    HOH) echo "Trjpnyv" ;;
    VNV) echo "Gxrgyzlsa" ;;
    HMW) echo "Pxiahsqgdl" ;;
    RRQ) echo "Szzmgzzh" ;;
    ZYF) echo "Knmyfnlj" ;;
    AQM) echo "Sfilq" ;;
    HRE) echo "Izxnjvgm" ;;
    AYQ) echo "Enzfye" ;;
    TEQ) echo "Wbpallyvvj" ;;
    XNJ) echo "Tmwfuseay" ;;
    JOV) echo "Pnxlmc" ;;
    BES) echo "Iqucf" ;;
    YOY) echo "Xcmlqfloj" ;;
    WBZ) echo "Xyiclbv" ;;
    ELU) echo "Lggfkvay" ;;
    XFV) echo "Zghqvlc" ;;
    KGU) echo "Lblhtkxvp" ;;
    MXT) echo "Wqjphdt" ;;
    AUH) echo "Iydcksde" ;;
    NGI) echo "Xzrwg" ;;
    LIA) echo "Yeeakhh" ;;
    PQA) echo "Tlwor" ;;
    NMA) echo "Xrjhw" ;;
    GWT) echo "Zstwycuopx" ;;
    GYX) echo "Bdrawdujn" ;;
    IPT) echo "Nelcvrtcr" ;;
    QMP) echo "Rxwafp" ;;
    CVK) echo "Untwahs" ;;
    QXV) echo "Syfib" ;;
    FCU) echo "Cfosywdeou" ;;
    ZHZ) echo "Sudlluj" ;;
    UMP) echo "Qoajbp" ;;
    GVB) echo "Nmngr" ;;
    IBS) echo "Vnsfdrzwhw" ;;
    ZFN) echo "Fxmxgc" ;;
    UNG) echo "Avorxjea" ;;
    WTI) echo "Wsfaxyed" ;;
    RVB) echo "Azhtxh" ;;
    XCB) echo "Kbedw" ;;
    AYL) echo "Hoewyf" ;;
    XGR) echo "Sbjzhfvo" ;;
    PPX) echo "Jwpha" ;;
    ZHW) echo "Cwpaowrx" ;;
    MZJ) echo "Jxwxz" ;;
    EPK) echo "Qnpspsdukd" ;;
    ONB) echo "Fckbmett" ;;
    EBT) echo "Rflmpzunrm" ;;
    SDQ) echo "Fobdq" ;;
    VXI) echo "Vncvjfwa" ;;
    XMF) echo "Ervryor" ;;
    NFF) echo "Frzgbgi" ;;
    PXJ) echo "Kfvbhiixhd" ;;
    GXM) echo "Pljctwj" ;;
    VKJ) echo "Wjwxvhfu" ;;
    WTG) echo "Cnwjaib" ;;
    YFX) echo "Etksbapbrd" ;;
    GDX) echo "Awraf" ;;
    STH) echo "Uqvzfbur" ;;
    CPH) echo "Lmcddx" ;;
    HBJ) echo "Qyrgmgzb" ;;
    FUU) echo "Xfharmprky" ;;
    CUB) echo "Sjfopbtclx" ;;
    MYJ) echo "Rkzza" ;;
    DJS) echo "Fhelydbizh" ;;
    YZC) echo "Zehmy" ;;
    JBB) echo "Xuejlluc" ;;
    ILG) echo "Jllhhfxn" ;;
    ZAQ) echo "Iqdxrerpj" ;;
    QLW) echo "Ntdcfmvuu" ;;
    XDI) echo "Wdvbqsw" ;;
    RST) echo "Aumgnw" ;;
    OUE) echo "Vjzgyaipue" ;;
    GRA) echo "Edvku" ;;
    DIR) echo "Fmfgdrtajd" ;;
    PFM) echo "Cciurssgig" ;;
    BBX) echo "Gwwxpiwbp" ;;
    INT) echo "Ttuohyedwv" ;;
    QJM) echo "Xxppidxkzq" ;;
    JRN) echo "Soklpqkvf" ;;
    QLG) echo "Fpvkdmeesj" ;;
    WIG) echo "Xlaruoya" ;;
    LGM) echo "Ihrbgbzfjt" ;;
    ZCH) echo "Tclrusosd" ;;
    WJN) echo "Iswvlgeb" ;;
    VZK) echo "Zlfpsgyh" ;;
    LTU) echo "Qhpsjegn" ;;
    IIP) echo "Rpqizvhs" ;;
    DSR) echo "Odzaiskud" ;;
    UFV) echo "Zzirfv" ;;
    DSC) echo "Rwgib" ;;
    RQU) echo "Qsolnvc" ;;
    URL) echo "Zkmvzak" ;;
    NPM) echo "Wrjug" ;;
    ZGO) echo "Jrkiuin" ;;
    SXC) echo "Ssqkzjs" ;;
    VQW) echo "Gczbgkovv" ;;
    RXB) echo "Thdkxcvx" ;;
    QGF) echo "Cluck" ;;
    GGB) echo "Epmdxy" ;;
    NET) echo "Hzyik" ;;
    DDA) echo "Phuxv" ;;
    VMQ) echo "Upalqsgub" ;;
    QLK) echo "Jxyslo" ;;
    GET) echo "Ldyevhtjy" ;;
    IKM) echo "Perty" ;;
    NYH) echo "Himkke" ;;
    AZC) echo "Nuiax" ;;
    TOX) echo "Acnhz" ;;
    CXN) echo "Ysskxwow" ;;
    OZK) echo "Xrvzkhcb" ;;
    QCN) echo "Atquyx" ;;
    LMB) echo "Ocyjunip" ;;
    FQP) echo "Jiuhlser" ;;
    ZQO) echo "Atlnnpe" ;;
    EJP) echo "Opklmvmjfv" ;;
    CQO) echo "Sdmfni" ;;
    YQG) echo "Nvbft" ;;
    XYO) echo "Kqpmrm" ;;
    IPI) echo "Lbzsta" ;;
    MCM) echo "Dhwmf" ;;
    CKW) echo "Nnxyolvitq" ;;
    NQO) echo "Vskhmulr" ;;
    DDZ) echo "Wxjapf" ;;
    YCN) echo "Djfbrgoax" ;;
    VGZ) echo "Amyvwaxooc" ;;
    VRC) echo "Dufxvtsak" ;;
    UQV) echo "Ldvalbtvq" ;;
    WZG) echo "Tsgjhlzkf" ;;
    XHX) echo "Vzhftl" ;;
    GTH) echo "Yujtmoeod" ;;
    HSW) echo "Ayvojbb" ;;
    REU) echo "Zdkvvbbvx" ;;
    YLF) echo "Bdmhmoq" ;;
    KIK) echo "Jowikugtt" ;;
    EIS) echo "Ahxepied" ;;
    XSV) echo "Epryji" ;;
    GFN) echo "Ykixio" ;;
    RUN) echo "Ypxxcjkly" ;;
    OBE) echo "Oxuhzdc" ;;
    GPT) echo "Ditktpjvax" ;;
    QYZ) echo "Gqqjop" ;;
    LAX) echo "Hzutn" ;;
    RLT) echo "Tfrhhgm" ;;
    WCF) echo "Aatycxj" ;;
    NLI) echo "Ehsrngmwgs" ;;
    OTE) echo "Wchwzt" ;;
    ERH) echo "Qxiyahmc" ;;
    RJB) echo "Lolvzapzff" ;;
    PRZ) echo "Xjnjorjxnc" ;;
    NCX) echo "Axykekmfc" ;;
    ZFY) echo "Wczkvc" ;;
    NOS) echo "Vwduqhuq" ;;
    HRW) echo "Xmupchyagp" ;;
    WBR) echo "Jygam" ;;
    GXV) echo "Kykswe" ;;
    ZDQ) echo "Tijelutx" ;;
    GNU) echo "Qchjhugc" ;;
    RJT) echo "Cnbytf" ;;
    QMC) echo "Seonlyff" ;;
    JMR) echo "Sixcd" ;;
    TBI) echo "Mkthxb" ;;
    YJZ) echo "Xtvizs" ;;
    QXI) echo "Cozrrnvt" ;;
    DRQ) echo "Svtatjr" ;;
    UZZ) echo "Wuaxahwydn" ;;
    STY) echo "Shjitj" ;;
    WVT) echo "Tltfkwy" ;;
    LEW) echo "Depmt" ;;
    GOR) echo "Rjzacc" ;;
    OOA) echo "Wfktax" ;;
    USC) echo "Uxprwltzg" ;;
    TQG) echo "Uubnpdfj" ;;
    *) echo "unknown region $1" >&2; return 1 ;;
  esac
}
