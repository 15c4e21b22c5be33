/** What Word (desktop) puts on the clipboard as HTML for a heading, a paragraph with a link, a bulleted and a numbered list. */
export const WORD_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
<head><meta name=Generator content="Microsoft Word 15">
<style><!-- p.MsoNormal {mso-style-parent:""; margin:0in; font-family:"Calibri",sans-serif;} @list l0:level1 {mso-level-number-format:bullet;} --></style>
<!--[if gte mso 9]><xml><w:WordDocument><w:View>Normal</w:View></w:WordDocument></xml><![endif]-->
</head>
<body lang=EN-US style='tab-interval:.5in'>
<!--StartFragment-->
<h1 style='mso-style-name:"Heading 1"'><a name="_Toc1"></a><span style='font-family:"Calibri Light"'>Why salons automate<o:p></o:p></span></h1>
<p class=MsoNormal style='margin-bottom:8pt'><span style='font-size:12pt;color:#1F3864'>Reminders cut no-shows. Read <a href="https://example.com/study" class=MsoHyperlink style='color:blue'>the study</a> or <a href="javascript:alert(1)">this</a>.<o:p></o:p></span></p>
<h2><span style='mso-fareast-font-family:"Times New Roman"'>Three quick wins</span></h2>
<p class=MsoListParagraphCxSpFirst style='text-indent:-.25in;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span><![endif]>Text reminders<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-.25in;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span><![endif]>Online booking<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraph style='text-indent:-.25in;mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Pick a tool<o:p></o:p></p>
<p class=MsoListParagraph style='text-indent:-.25in;mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Turn it on<o:p></o:p></p>
<script>window.__pasted = true</script>
<img src="file:///C:/Users/owner/AppData/Local/Temp/msohtmlclip1/01/clip_image001.png" alt="">
<!--EndFragment-->
</body></html>`;

/** What Google Docs puts on the clipboard: everything inside one <b style="font-weight:normal" id="docs-internal-guid-…">. */
export const GOOGLE_DOCS_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-12ab34cd-7fff-1234-5678-abcdef012345"><h2 dir="ltr" style="line-height:1.38;margin-top:18pt;margin-bottom:6pt;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">Book online</span></h2><p dir="ltr" style="line-height:1.38;"><span style="font-size:11pt;font-weight:400;">Guests book at night. </span><span style="font-size:11pt;font-weight:700;">Always.</span></p><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;">Fewer calls</span></p></li></ul><p dir="ltr"><a href="https://example.com/" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;text-decoration:underline;">Read more</span></a></p></b>`;
